import Foundation
import SessionCore

/// Sign-in by emailed code, and password reset (docs/EMAIL.md).
extension SessionClient {
    /// Mails a six-digit sign-in code (and a link) to `email`.
    ///
    /// The server answers the same whether or not the address has an
    /// account, so this returning says nothing about that.
    ///
    /// - Parameters:
    ///   - email: the address; the server trims and lowercases it.
    ///   - createUser: create the account when the address has none (the default, as GoTrue does).
    ///   - data: metadata for an account created by the code.
    /// - Throws: ``SessionError/rateLimited`` (one email a minute per address: wait
    ///   ``SessionError/retryAfter``), ``SessionError/invalidRequest`` (not an address),
    ///   ``SessionError/unsupported`` (the server sends no mail), ``SessionError/network``.
    public func sendEmailCode(
        to email: String, createUser: Bool = true, data: [String: JSONValue]? = nil
    ) async throws(SessionError) {
        try await EmailCodeSignIn().sendEmailCode(to: email, createUser: createUser, data: data, on: self)
    }

    /// Signs in with the code from ``sendEmailCode(to:createUser:data:)``; the
    /// session is saved (verified) before this returns.
    ///
    /// - Throws: ``SessionError/codeInvalid`` when the code is wrong, expired or
    ///   used (after five wrong tries it stops working: ask for a new one), and
    ///   what ``signIn(email:password:)`` throws.
    @discardableResult
    public func verifyEmailCode(email: String, code: String) async throws(SessionError) -> Session {
        try await EmailCodeSignIn().verifyEmailCode(email: email, code: code, on: self)
    }

    /// Mails a password-reset code (and a link) to `email`, if it has an account.
    ///
    /// - Throws: as ``sendEmailCode(to:createUser:data:)``.
    public func sendPasswordReset(to email: String) async throws(SessionError) {
        try await EmailCodeSignIn().sendPasswordReset(to: email, on: self)
    }

    /// Signs in with the reset code and sets `newPassword`. Every other
    /// session of the account is signed out; this one stays.
    ///
    /// If the new password is refused (too short, say) the person is already
    /// signed in by the code: show the error and call
    /// ``updatePassword(_:currentPassword:nonce:)`` with a better one.
    ///
    /// - Throws: ``SessionError/codeInvalid``, ``SessionError/invalidRequest``
    ///   (the password; its message says why), and what ``signIn(email:password:)`` throws.
    @discardableResult
    public func completePasswordReset(email: String, code: String, newPassword: String) async throws(SessionError) -> Session {
        try await EmailCodeSignIn().completePasswordReset(email: email, code: code, newPassword: newPassword, on: self)
    }

    /// Sets a new password and returns the updated user. Every other session
    /// of the account is signed out.
    ///
    /// - Parameters:
    ///   - newPassword: the password to set (the server's minimum length applies, 8 by default).
    ///   - currentPassword: needed when the session signed in more than
    ///     the server's re-authentication window ago (10 minutes by default).
    ///   - nonce: the other proof, for a person without a password: the code
    ///     ``reauthenticate()`` had mailed (GoTrue's `nonce`).
    /// - Throws: ``SessionError/invalidRequest`` (a weak password, or
    ///   `current_password` needed or wrong: the message says which),
    ///   ``SessionError/notSignedIn``, ``SessionError/sessionExpired``, ``SessionError/network``.
    @discardableResult
    public func updatePassword(
        _ newPassword: String, currentPassword: String? = nil, nonce: String? = nil
    ) async throws(SessionError) -> SessionUser {
        try await EmailCodeSignIn().updatePassword(newPassword, currentPassword: currentPassword, nonce: nonce, on: self)
    }

    /// Mails the signed-in person a six-digit code (GoTrue's `nonce`) that
    /// proves they are at the keyboard, for a change that needs fresh proof:
    /// pass it to ``updatePassword(_:currentPassword:nonce:)``,
    /// ``updateUser(_:)`` (`UserAttributes.nonce`) or
    /// ``deleteAccount(currentPassword:nonce:)``. The proof for a person who
    /// has no password (signed up with a provider or an email code), as
    /// supabase-swift's `reauthenticate()`. The code works once.
    ///
    /// - Throws: ``SessionError/rateLimited`` (one email a minute: wait
    ///   ``SessionError/retryAfter``), ``SessionError/invalidRequest`` (an
    ///   account without an email address: sign in again instead),
    ///   ``SessionError/notSignedIn``, ``SessionError/unsupported`` (a backend without it).
    public func reauthenticate() async throws(SessionError) {
        try await EmailCodeSignIn().reauthenticate(on: self)
    }
}
