import Foundation
import SessionCore

/// Signing in with email and password, and signing up.
struct PasswordSignIn: Sendable {
    func signIn(email: String, password: String, on engine: isolated any SessionEngine) async throws(SessionError) -> Session {
        try await engine.signIn(with: engine.backend.request(for: .signIn(PasswordCredentials(email: email, password: password))))
    }

    /// Creates an account; signs in when the server answers with a session,
    /// else (GoTrue with email confirmation on) answers with the user alone.
    func signUp(
        email: String, password: String, data: [String: JSONValue]?, on engine: isolated any SessionEngine
    ) async throws(SessionError) -> SignUpResult {
        let backend = engine.backend
        let request = try backend.request(for: .signUp(PasswordCredentials(email: email, password: password, data: data)))
        let body = try await engine.sendUnauthorized(request, context: .request)
        let sessionError: SessionError
        do {
            let response = try BackendDecoding.validate(backend.decodeSession(body))
            let session = Session(response: response, serverNow: engine.serverNow)
            try await engine.establish(session, keepingUnsaved: false)
            return .signedIn(session)
        } catch {
            if error != .decoding { throw error }
            sessionError = error
        }
        // GoTrue with email confirmation on answers with the user alone.
        do {
            return .confirmationRequired(try backend.decodeUser(body))
        } catch {
            throw sessionError
        }
    }
}
