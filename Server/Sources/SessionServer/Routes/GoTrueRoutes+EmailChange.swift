import Foundation
import Hummingbird
import SessionCore

/// `PUT /user {email}` and the optional bearer of `/verify` and `/resend`
/// (docs/ACCOUNTS.md, "Becoming permanent", "A confirmed email change (server)").
extension GoTrueRoutes {
    /// Starts the change to `newEmail` (already normalized and different from
    /// the current address); the answer is the user with `email` unchanged,
    /// `new_email` and `email_change_sent_at` (GoTrue's `UserUpdate`).
    func changeEmail(
        _ identity: AuthenticatedIdentity, user: UserRecord, to newEmail: String, _ update: UserUpdate, ip: String?,
        presenceProven: Bool, link: EmailCodeService.LinkTarget
    ) async throws -> UserRecord {
        try await codes.requestEmailChange(
            sessionID: identity.sessionID, user: user, to: newEmail, currentPassword: update.currentPassword, nonce: update.nonce,
            presenceProven: presenceProven, link: link, ip: ip)
    }

    /// The request's access token when it carries a valid one for a live
    /// session; `nil` when it carries none or one that does not verify.
    ///
    /// GoTrue reads no bearer on `/verify` and `/resend`; this server reads one
    /// only to keep the caller's own session (the same-session contract), so a
    /// bad or expired token is the same as none: the request still works as
    /// GoTrue's does, and nothing of a session is lost.
    func optionalBearer(_ request: Request) async throws -> AuthenticatedIdentity? {
        guard request.headers[.authorization] != nil else { return nil }
        let identity: AuthenticatedIdentity
        do {
            let token = try AuthMiddleware<AuthRequestContext>.bearerToken(in: request.headers)
            let verified = try await authMiddleware.verify(token, now: sessions.clock.now)
            identity = AuthenticatedIdentity(userID: verified.userID, sessionID: verified.sessionID, token: verified)
        } catch let error as AuthError where error != .databaseUnavailable {
            return nil
        }
        // Whether the session is live is decided inside the redeeming transaction.
        return identity
    }
}
