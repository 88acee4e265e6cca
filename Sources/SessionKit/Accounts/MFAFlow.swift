import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Second factors on GoTrue's wire (`/auth/v1/factors`, docs/MFA.md): enrol,
/// challenge, verify, remove, and the assurance level of the session.
///
/// Verify is the one step that makes a session: the AAL2 session it answers
/// with is established through the engine (saved, sequenced: rule A,
/// docs/PROTOCOL.md) like every other sign-in. Every other step leaves the
/// session as it is, and no refusal here ends it.
struct MFAFlow: Sendable {
    func enroll(_ params: MFAEnrollParams, on engine: isolated any SessionEngine) async throws(SessionError) -> MFAEnrollResponse {
        let request = try Self.request(engine.backend, "POST", "auth/v1/factors", body: BackendDecoding.encode(params))
        let (data, _) = try await engine.authorizedSend(request)
        let enrolled = try BackendDecoding.decode(MFAEnrollResponse.self, from: data, what: "factor enrolment")
        engine.logger.info("Enrolled a second factor (unverified)", metadata: ["factor.id": "\(enrolled.id)"])
        return enrolled
    }

    func challenge(factorId: String, on engine: isolated any SessionEngine) async throws(SessionError) -> MFAChallengeResponse {
        let path = try "auth/v1/factors/\(Self.checked(factorId))/challenge"
        // An empty object, as GoTrue's clients send for TOTP (`channel` is for phone factors).
        let (data, _) = try await engine.authorizedSend(try Self.request(engine.backend, "POST", path, body: Data("{}".utf8)))
        return try BackendDecoding.decode(MFAChallengeResponse.self, from: data, what: "challenge")
    }

    /// Answers a challenge; the AAL2 session the server answers with becomes the session.
    func verify(
        factorId: String, challengeId: String, code: String, on engine: isolated any SessionEngine
    ) async throws(SessionError) -> Session {
        let body = try BackendDecoding.encode(VerifyBody(challengeId: challengeId, code: code))
        let request = try Self.request(engine.backend, "POST", "auth/v1/factors/\(Self.checked(factorId))/verify", body: body)
        let mark = try engine.markSignedIn()
        // A lost answer (the server raised the session, the answer never came) throws here and keeps the
        // AAL1 session: the person enters the next code, and its verify raises the session again (docs/MFA.md).
        let (data, _) = try await engine.authorizedSend(request)
        // Established only if it continues the session held now: a sign-out meanwhile, or a sign-out
        // and a new sign-in as the same person, is the person's latest word (docs/ACCOUNTS.md).
        let session = try await engine.establishSuccessor(of: mark, answer: data, what: "second factor verify")
        engine.logger.info("A second factor was verified; the session is at AAL2", metadata: ["factor.id": "\(factorId)"])
        return session
    }

    func challengeAndVerify(factorId: String, code: String, on engine: isolated any SessionEngine) async throws(SessionError) -> Session {
        let challenge = try await challenge(factorId: factorId, on: engine)
        return try await verify(factorId: factorId, challengeId: challenge.id, code: code, on: engine)
    }

    func unenroll(factorId: String, on engine: isolated any SessionEngine) async throws(SessionError) -> MFAUnenrollResponse {
        let request = try Self.request(engine.backend, "DELETE", "auth/v1/factors/\(Self.checked(factorId))", body: nil)
        let (data, _) = try await engine.authorizedSend(request)
        return try BackendDecoding.decode(MFAUnenrollResponse.self, from: data, what: "unenrolment")
    }

    /// The user's factors, from the server (`GET /user`), which also refreshes the session's user.
    func listFactors(on engine: isolated any SessionEngine) async throws(SessionError) -> MFAFactors {
        MFAFactors(all: try await AccountRequests().me(on: engine).factors ?? [])
    }

    /// The session's level, from its access token (refreshed first when expired) and its user's factors.
    func assurance(on engine: isolated any SessionEngine) async throws(SessionError) -> AuthenticatorAssurance {
        try await engine.validSession().assurance
    }

    // MARK: - Requests

    private struct VerifyBody: Encodable {
        var challengeId: String
        var code: String

        enum CodingKeys: String, CodingKey {
            case code
            case challengeId = "challenge_id"
        }
    }

    /// A factor id goes into a path: only the characters of a UUID (GoTrue's ids), so nothing can change the path.
    static func checked(_ id: String) throws(SessionError) -> String {
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw SessionError.invalidRequest.with(message: "The factor id is not valid.")
        }
        return id
    }

    /// A request to GoTrue's factor endpoints; other backends have none.
    static func request(_ backend: any SessionBackend, _ method: String, _ path: String, body: Data?) throws(SessionError) -> URLRequest {
        guard let goTrue = backend as? GoTrueBackend else {
            throw SessionError.unsupported.with(
                message: "Second factors need a Supabase Auth (GoTrue) backend or auth-server (docs/MFA.md).")
        }
        var request = URLRequest(url: goTrue.url.appendingPathComponent(path))
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        backend.prepare(&request)
        return request
    }
}
