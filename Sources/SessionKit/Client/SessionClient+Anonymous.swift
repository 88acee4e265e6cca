import Foundation
import SessionCore

/// Anonymous users: starting a person without asking for anything, and never
/// throwing their account away by accident (docs/ACCOUNTS.md, "Anonymous users (SDK)").
extension SessionClient {
    /// Signs in as a new anonymous user, as supabase-swift's `signInAnonymously(data:captchaToken:)`;
    /// the session is saved (verified) before this returns, and ``Session/isAnonymous`` is `true`.
    ///
    /// Keep the person's data under this user; later, ``updateUser(_:)`` with an
    /// email (then ``verifyEmailChange(email:code:)``) or ``linkIdentity(provider:redirectTo:scopes:presenter:)``
    /// turns them into a permanent account with the same id and the same session.
    ///
    /// - Parameters:
    ///   - data: initial user metadata (`user_metadata`).
    ///   - captchaToken: the captcha answer, when the server asks for one.
    /// - Throws: ``SessionError/unsupported`` when the server has anonymous sign-ins
    ///   switched off (`anonymous_provider_disabled`) or the backend is not GoTrue;
    ///   ``SessionError/rateLimited`` (30 an hour per address on `auth-server`);
    ///   what ``signIn(email:password:)`` throws.
    @discardableResult
    public func signInAnonymously(
        data: [String: JSONValue]? = nil, captchaToken: String? = nil
    ) async throws(SessionError) -> Session {
        try await AnonymousSignIn().signIn(data: data, captchaToken: captchaToken, on: self)
    }

    /// Signs out, saying whether an anonymous account may be thrown away.
    ///
    /// ``signOut(scope:)`` refuses to end an anonymous session with
    /// ``SessionError/anonymousAccountWouldBeLost``: nobody can ever sign back
    /// into that account. Pass `discardingAnonymousAccount: true` only when the
    /// person chose to discard it (a "Start over" button behind a warning).
    /// For a session that is not anonymous this is ``signOut(scope:)``.
    ///
    /// - Parameters:
    ///   - scope: as ``signOut(scope:)``.
    ///   - discardingAnonymousAccount: `true` to end an anonymous session anyway.
    /// - Throws: what ``signOut(scope:)`` throws.
    public func signOut(scope: SignOutScope = .local, discardingAnonymousAccount: Bool) async throws(SessionError) {
        try await endSession(signingOut: scope, discardingAnonymousAccount: discardingAnonymousAccount)
    }
}
