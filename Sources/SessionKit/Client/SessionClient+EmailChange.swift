import Foundation
import SessionCore

/// A confirmed email change, and an anonymous person becoming permanent by email
/// (docs/ACCOUNTS.md, "A confirmed email change (SDK)").
extension SessionClient {
    /// Redeems a code an email change mailed (GoTrue's `verifyOTP` with type `email_change`),
    /// after ``updateUser(_:)`` with a new `email` answered a user whose `newEmail` is that address.
    ///
    /// An anonymous person gets one code, at the new address: redeeming it makes them a
    /// permanent account with the same id, the same data and the same session. A person with
    /// a confirmed address gets two (current and new), redeemed in either order: the first
    /// answers ``EmailChangeVerification/needsOtherConfirmation``, the last completes the
    /// change. Completing it continues the session (same session, same refresh family, the
    /// successor saved before this returns) and publishes the updated user once.
    ///
    /// - Parameters:
    ///   - email: the address the code was mailed to (the new one, or the current one).
    ///   - code: the six-digit code as typed (spaces and dashes are dropped).
    /// - Throws: ``SessionError/codeInvalid`` (wrong, expired or used: ``resend(email:type:)``),
    ///   ``SessionError/notSignedIn`` (also when the person signed out while it was checked),
    ///   ``SessionError/unsupported`` on a backend other than GoTrue, ``SessionError/network``
    ///   (nothing changed here; the code may still be good).
    @discardableResult
    public func verifyEmailChange(email: String, code: String) async throws(SessionError) -> EmailChangeVerification {
        try await EmailChangeFlow().verify(email: email, code: code, on: self)
    }

    /// Mails the codes again, as supabase-swift's `resend(email:type:)`.
    ///
    /// - Parameters:
    ///   - email: the address (for `.emailChange`, the new or the current one).
    ///   - type: ``EmailResendType/emailChange`` or ``EmailResendType/signup``.
    /// - Throws: ``SessionError/rateLimited`` (wait ``SessionError/retryAfter``),
    ///   ``SessionError/unsupported`` on a backend other than GoTrue.
    public func resend(email: String, type: EmailResendType) async throws(SessionError) {
        try await EmailChangeFlow().resend(email: email, type: type, on: self)
    }
}
