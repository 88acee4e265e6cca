import Foundation

/// What a Sign in with Apple brought: the session and, on the first authorization, the name.
public struct AppleSignInResult: Sendable, Hashable {
    /// The new session, saved.
    public var session: Session
    /// The name Apple sent (first authorization only); keep it, Apple will not send it again.
    public var fullName: AppleFullName?
    /// Why the name could not be written to the user's metadata, when that was asked and failed.
    /// The sign-in stands either way; the app may retry with ``SessionClient/updateUser(_:)``.
    public var nameNotSaved: SessionError?
}
