#if canImport(Observation)
import Foundation
import SessionCore

extension SessionModel {
    /// True while the signed-in person is anonymous (``Session/isAnonymous``).
    /// They are signed in (``SessionModel/phase`` is ``SessionModel/Phase/signedIn``):
    /// show the app, and offer to keep the account (an email, a linked provider).
    public var isAnonymous: Bool { state.session?.isAnonymous ?? false }

    /// Starts the person as an anonymous user (``SessionClient/signInAnonymously(data:captchaToken:)``).
    ///
    /// - Returns: whether it succeeded; otherwise ``lastError`` says why.
    @discardableResult
    public func signInAnonymously(data: [String: JSONValue]? = nil, captchaToken: String? = nil) async -> Bool {
        await perform { client throws(SessionError) in
            _ = try await client.signInAnonymously(data: data, captchaToken: captchaToken)
        }
    }

    /// Signs out, discarding an anonymous account only when `discardingAnonymousAccount` is `true`
    /// (``SessionClient/signOut(scope:discardingAnonymousAccount:)``). ``signOut(scope:)`` refuses
    /// an anonymous session with ``SessionError/anonymousAccountWouldBeLost`` in ``lastError``.
    @discardableResult
    public func signOut(scope: SignOutScope = .local, discardingAnonymousAccount: Bool) async -> Bool {
        await perform { client throws(SessionError) in
            try await client.signOut(scope: scope, discardingAnonymousAccount: discardingAnonymousAccount)
        }
    }
}
#endif
