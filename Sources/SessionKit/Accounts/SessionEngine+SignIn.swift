import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// What every sign-in flow ends with, on the engine's executor.
extension SessionEngine {
    /// Sends a sign-in request and establishes the session it answers with
    /// (saved, verified, before this returns).
    func signIn(with request: URLRequest) async throws(SessionError) -> Session {
        let data = try await sendUnauthorized(request, context: .signIn)
        let response = try BackendDecoding.validate(backend.decodeSession(data))
        noteDroppedFields(of: response)
        let session = Session(response: response, serverNow: serverNow)
        try await establish(session, keepingUnsaved: false)
        return session
    }

    /// Logs the fields of a kept session answer that could not be read (names only, never a value).
    func noteDroppedFields(of response: TokenResponse) {
        guard !response.droppedFields.isEmpty else { return }
        logger.notice(
            "Kept the server's session answer without fields it could not read",
            metadata: ["fields": "\(response.droppedFields.joined(separator: ","))"])
    }
}
