import Foundation
import SessionCore

/// Sign-in by emailed code, password reset and fresh proof (docs/EMAIL.md).
struct EmailCodeSignIn: Sendable {
    func sendEmailCode(
        to email: String, createUser: Bool, data: [String: JSONValue]?, on engine: isolated any SessionEngine
    ) async throws(SessionError) {
        let request = try engine.backend.request(
            for: .sendEmailCode(EmailCodeRequest(email: email, createUser: createUser, data: data)))
        _ = try await engine.sendUnauthorized(request, context: .request)
    }

    func verifyEmailCode(email: String, code: String, on engine: isolated any SessionEngine) async throws(SessionError) -> Session {
        try await redeem(VerifyRequest(type: "email", email: email, token: Self.digits(code)), on: engine)
    }

    func sendPasswordReset(to email: String, on engine: isolated any SessionEngine) async throws(SessionError) {
        let request = try engine.backend.request(for: .sendPasswordReset(PasswordResetRequest(email: email)))
        _ = try await engine.sendUnauthorized(request, context: .request)
    }

    /// Signs in with the reset code, then sets the password (the person is
    /// signed in by the code even if the password is then refused).
    func completePasswordReset(
        email: String, code: String, newPassword: String, on engine: isolated any SessionEngine
    ) async throws(SessionError) -> Session {
        let session = try await redeem(VerifyRequest(type: "recovery", email: email, token: Self.digits(code)), on: engine)
        try await updatePassword(newPassword, currentPassword: nil, nonce: nil, on: engine)
        return session
    }

    @discardableResult
    func updatePassword(
        _ newPassword: String, currentPassword: String?, nonce: String?, on engine: isolated any SessionEngine
    ) async throws(SessionError) -> SessionUser {
        let update = PasswordUpdate(
            password: newPassword, currentPassword: currentPassword, nonce: nonce.map { Self.digits($0) })
        let (data, _) = try await engine.authorizedSend(try engine.backend.request(for: .updatePassword(update)))
        return try engine.backend.decodeUser(data)
    }

    func reauthenticate(on engine: isolated any SessionEngine) async throws(SessionError) {
        _ = try await engine.authorizedSend(try engine.backend.request(for: .reauthenticate))
    }

    private func redeem(_ body: VerifyRequest, on engine: isolated any SessionEngine) async throws(SessionError) -> Session {
        try await engine.signIn(with: engine.backend.request(for: .verifyEmailCode(body)))
    }

    /// The code as typed: spaces and dashes ("123 456", "123-456") dropped.
    static func digits(_ code: String) -> String {
        code.filter { !$0.isWhitespace && $0 != "-" }
    }
}
