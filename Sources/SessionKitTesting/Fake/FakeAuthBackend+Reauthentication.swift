import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// GoTrue's re-authentication in the fake: `GET /auth/v1/reauthenticate`
/// "mails" a six-digit nonce, read with ``reauthenticationNonce(sentTo:)``;
/// with ``requireReauthentication(_:)`` on, a new password and an account
/// deletion need it (or the current password), as GoTrue with "secure
/// password change" and a session older than its window.
///
/// Answers as GoTrue's `internal/api/reauthenticate.go` and `user.go` do:
/// `{}` for a sent nonce, 400 `reauthentication_needed` without proof, 400
/// `reauthentication_not_valid` for a wrong or spent nonce; the gateway's
/// deletion answers 403 `REAUTHENTICATION_REQUIRED`, as auth-server's.
extension FakeAuthBackend {
    /// The newest nonce mailed to `email`, if one is outstanding.
    public func reauthenticationNonce(sentTo email: String) -> String? { reauthenticationNonces[email.lowercased()] }

    /// Whether a password change or a deletion needs fresh proof (off by default, as GoTrue's setting).
    public func requireReauthentication(_ required: Bool) { reauthenticationRequired = required }

    func handleReauthenticate(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        switch authenticate(request) {
        case .success(let (user, _)):
            guard let email = user.record.email?.lowercased() else {
                return try goTrueError(
                    request, status: 422, code: .validationFailed,
                    message: "Reauthentication requires the user to have an email or a phone number")
            }
            reauthenticationNonces[email] = String(format: "%06d", Int.random(in: 0..<1_000_000))
            return try respond(request, status: 200, body: Data("{}".utf8))
        case .failure(let failure): return try goTrueAuthError(request, failure)
        }
    }

    /// What the proof in a request body says, when proof is required.
    enum ProofOutcome {
        case accepted, missing, invalidNonce, wrongPassword
    }

    /// Checks (and spends) the proof a body carries for `user`.
    func checkProof(_ request: URLRequest, user: User) -> ProofOutcome {
        struct Proof: Decodable {
            var nonce: String?
            var currentPassword: String?
            enum CodingKeys: String, CodingKey {
                case nonce
                case currentPassword = "current_password"
            }
        }
        guard reauthenticationRequired else { return .accepted }
        let proof = decodeBody(Proof.self, request)
        if let current = proof?.currentPassword { return current == user.password ? .accepted : .wrongPassword }
        guard let nonce = proof?.nonce, !nonce.isEmpty else { return .missing }
        let key = user.record.email?.lowercased() ?? ""
        guard let expected = reauthenticationNonces[key], expected == nonce else { return .invalidNonce }
        reauthenticationNonces[key] = nil
        return .accepted
    }

    /// GoTrue's answer to a refused proof on `PUT /user`.
    func goTrueProofError(_ request: URLRequest, _ outcome: ProofOutcome) throws -> (Data, HTTPURLResponse) {
        switch outcome {
        case .missing:
            try goTrueError(
                request, status: 400, code: .reauthenticationNeeded, message: "Password update requires reauthentication")
        case .wrongPassword:
            try goTrueError(request, status: 400, code: .currentPasswordMismatch, message: "current_password is not correct.")
        case .invalidNonce, .accepted:
            try goTrueError(request, status: 400, code: .reauthenticationNotValid, message: "Nonce has expired or is invalid")
        }
    }
}
