import Foundation
import HTTPTypes
import NIOCore
import SQLKit
import HummingbirdTesting
import SessionCore
import SessionKitTesting

@testable import SessionServer

/// An enrolled factor as the tests hold it: its id and its secret's bytes.
struct EnrolledFactor {
    let id: String
    let secret: [UInt8]

    /// The code an authenticator app shows at `date`.
    func code(at date: Date) -> String { TOTP(secret: secret).code(step: TOTP.step(at: date)) }

    /// A six-digit code that matches no step within the window at `date`.
    func wrongCode(at date: Date) -> String {
        func sixDigits(_ value: Int) -> String {
            let text = String(value % 1_000_000)
            return String(repeating: "0", count: 6 - text.count) + text
        }
        var value = (Int(code(at: date)) ?? 0) + 1
        while TOTP(secret: secret).matchingStep(of: sixDigits(value), at: date) != nil { value += 1 }
        return sixDigits(value)
    }
}

extension TestClientProtocol {
    func enroll(_ bearer: String, name: String = "phone") async throws -> EnrolledFactor {
        let response = try await send(
            .post, "/auth/v1/factors", json: #"{"factor_type":"totp","friendly_name":"\#(name)","issuer":"Acme"}"#, bearer: bearer)
        let object = try response.jsonObject()
        guard let id = object["id"] as? String, let totp = object["totp"] as? [String: Any],
            let secret = (totp["secret"] as? String).flatMap(Base32.decode)
        else { throw UnexpectedResponse(description: "enroll: \(response.status.code) \(response.text)") }
        return EnrolledFactor(id: id, secret: secret)
    }

    func challenge(_ factorID: String, bearer: String) async throws -> TestResponse {
        try await send(.post, "/auth/v1/factors/\(factorID)/challenge", bearer: bearer)
    }

    func challengeID(_ factorID: String, bearer: String) async throws -> String {
        let response = try await challenge(factorID, bearer: bearer)
        guard let id = try response.jsonObject()["id"] as? String else {
            throw UnexpectedResponse(description: "challenge: \(response.status.code) \(response.text)")
        }
        return id
    }

    func verify(_ factorID: String, challenge: String, code: String, bearer: String) async throws -> TestResponse {
        try await send(
            .post, "/auth/v1/factors/\(factorID)/verify", json: #"{"challenge_id":"\#(challenge)","code":"\#(code)"}"#,
            bearer: bearer)
    }

    /// Enrols, challenges and verifies: the AAL2 session.
    func enrollAndVerify(_ bearer: String, at date: Date, name: String = "phone") async throws -> (EnrolledFactor, TokenResponse) {
        let factor = try await enroll(bearer, name: name)
        let challenge = try await challengeID(factor.id, bearer: bearer)
        let session = try await verify(factor.id, challenge: challenge, code: factor.code(at: date), bearer: bearer)
            .decode(TokenResponse.self)
        return (factor, session)
    }
}

/// The payload of a JWT as JSON, for claims the shared `JWTClaims` does not read (`aal`, `amr`).
func payload(of token: String) throws -> [String: Any] {
    let parts = token.split(separator: ".")
    guard parts.count == 3, let data = Base64URL.decode(String(parts[1])),
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { throw UnexpectedResponse(description: "not a JWT") }
    return object
}

/// The `amr` methods of a token, in order.
func amrMethods(of token: String) throws -> [String] {
    ((try payload(of: token))["amr"] as? [[String: Any]] ?? []).compactMap { $0["method"] as? String }
}
