import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// A test server with `--external-url http://localhost` (so `htu` is
/// `http://localhost/…`), and the calls of a DPoP client against it.
struct DPoPHarness {
    let test: TestServer
    let key = DPoPTestKey()
    static let base = "http://localhost"

    static func make(_ database: TestDatabase, require: Bool = false, nonce: Bool = false) async throws -> DPoPHarness {
        let test = try await TestServer.make(database) {
            $0.externalURL = URL(string: base)
            $0.requireDPoP = require
            $0.dpopNonce = nonce
        }
        return DPoPHarness(test: test)
    }

    var iat: Int { Int(test.clock.now.timeIntervalSince1970) }

    func tokenProof(_ path: String = "/auth/v1/token", by key: DPoPTestKey? = nil, nonce: String? = nil) -> HTTPFields {
        let key = key ?? self.key
        return key.headers(key.proof(url: Self.base + path, iat: iat, nonce: nonce))
    }

    /// Signs up with a proof: a bound session.
    func signUpBound(_ client: any TestClientProtocol, email: String = "ada@example.com") async throws -> TokenResponse {
        try await client.send(
            .post, "/auth/v1/signup", json: #"{"email":"\#(email)","password":"correct-horse"}"#,
            headers: tokenProof("/auth/v1/signup")
        ).decode(TokenResponse.self)
    }

    func refresh(_ client: any TestClientProtocol, _ token: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await client.send(
            .post, "/auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"\#(token)"}"#, headers: headers)
    }

    /// `GET /v1/auth/me` with `Authorization: DPoP` and a proof with `ath`.
    func me(_ client: any TestClientProtocol, _ accessToken: String, by key: DPoPTestKey? = nil, ath: String? = nil)
        async throws -> TestResponse
    {
        let key = key ?? self.key
        var headers = key.headers(key.proof("GET", url: Self.base + "/v1/auth/me", iat: iat, accessToken: accessToken, ath: ath))
        headers[.authorization] = "DPoP \(accessToken)"
        return try await client.send(.get, "/v1/auth/me", headers: headers)
    }

    /// The access token's `cnf.jkt`.
    static func confirmation(of accessToken: String) throws -> String? {
        let payload = try #require(Base64URL.decode(accessToken.split(separator: ".")[1]))
        let object = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        return (object["cnf"] as? [String: Any])?["jkt"] as? String
    }
}

