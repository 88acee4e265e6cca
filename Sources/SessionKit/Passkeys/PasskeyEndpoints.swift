import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// The requests of GoTrue's passkey API, `/auth/v1/passkeys` (docs/PASSKEYS.md).
///
/// Built here rather than as new ``BackendOperation`` cases: the API is
/// GoTrue's (Supabase Auth and `auth-server`), and a public enum that gains
/// cases breaks an app's exhaustive `switch`.
struct PasskeyEndpoints: Sendable {
    let backend: GoTrueBackend

    /// - Throws: ``SessionError/unsupported`` for a backend that is not GoTrue.
    init(_ backend: any SessionBackend) throws(SessionError) {
        guard let goTrue = backend as? GoTrueBackend else {
            throw SessionError.unsupported.with(
                message: "Passkeys need a GoTrue backend (Supabase Auth or auth-server); this backend has no passkey API.")
        }
        self.backend = goTrue
    }

    func authenticationOptions() -> URLRequest { request("POST", "authentication/options", body: Data("{}".utf8)) }

    func authenticationVerify(challengeID: String, credential: PasskeyAssertionCredential) throws(SessionError) -> URLRequest {
        request("POST", "authentication/verify", body: try BackendDecoding.encode(Verify(challengeID: challengeID, credential: credential)))
    }

    func registrationOptions() -> URLRequest { request("POST", "registration/options", body: Data("{}".utf8)) }

    /// GoTrue reads the credential as `credential_response` at registration,
    /// `auth-server` and supabase-swift say `credential`: both are sent (each
    /// server ignores the key it does not know).
    func registrationVerify(
        challengeID: String, credential: PasskeyRegistrationCredential, friendlyName: String?
    ) throws(SessionError) -> URLRequest {
        let body = Verify(challengeID: challengeID, credential: credential, credentialResponse: credential, friendlyName: friendlyName)
        return request("POST", "registration/verify", body: try BackendDecoding.encode(body))
    }

    func list() -> URLRequest { request("GET", nil) }

    func rename(id: String, friendlyName: String) throws(SessionError) -> URLRequest {
        request("PATCH", try path(id), body: try BackendDecoding.encode(["friendly_name": friendlyName]))
    }

    func delete(id: String) throws(SessionError) -> URLRequest { request("DELETE", try path(id)) }

    private struct Verify<Credential: Encodable & Sendable>: Encodable, Sendable {
        var challengeID: String
        var credential: Credential
        var credentialResponse: Credential?
        var friendlyName: String?

        enum CodingKeys: String, CodingKey {
            case credential
            case challengeID = "challenge_id"
            case credentialResponse = "credential_response"
            case friendlyName = "friendly_name"
        }
    }

    /// A passkey id as one path segment (GoTrue's are UUIDs): anything that could leave the segment is refused.
    private func path(_ id: String) throws(SessionError) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        guard !id.isEmpty, id.count <= 128, id.unicodeScalars.allSatisfy(allowed.contains) else {
            throw SessionError.invalidRequest.with(message: "The passkey id is not valid.")
        }
        return id
    }

    private func request(_ method: String, _ path: String?, body: Data? = nil) -> URLRequest {
        var url = backend.url.appendingPathComponent("auth/v1/passkeys")
        if let path { url = url.appendingPathComponent(path) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        backend.prepare(&request)
        return request
    }
}
