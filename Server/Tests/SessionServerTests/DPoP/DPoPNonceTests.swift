import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Server nonces (`--dpop-nonce`, RFC 9449 §8, docs/DPOP.md "Nonces"), on the
/// injected clock: asked for, handed out, refused when stale or forged, and
/// ignored when off.
struct DPoPNonceTests {
    static let nonceHeader = HTTPField.Name("DPoP-Nonce")!

    /// A sign-up with a proof (optionally with `nonce` and a given `jti`).
    static func signUp(
        _ h: DPoPHarness, _ client: any TestClientProtocol, email: String, nonce: String? = nil, jti: String = UUID().uuidString
    ) async throws -> TestResponse {
        let proof = h.key.proof(url: DPoPHarness.base + "/auth/v1/signup", iat: h.iat, jti: jti, nonce: nonce)
        return try await client.send(
            .post, "/auth/v1/signup", json: #"{"email":"\#(email)","password":"correct-horse"}"#, headers: h.key.headers(proof))
    }

    @Test(arguments: TestDatabase.all)
    func aGrantWithoutANonceIsAskedForOneAndTheRetryWithItSucceeds(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database, nonce: true)
        try await h.test.run { client in
            let jti = UUID().uuidString
            let asked = try await Self.signUp(h, client, email: "ada@example.com", jti: jti)
            #expect(asked.status == .badRequest)
            #expect(asked.goTrueErrorCode == "use_dpop_nonce")
            #expect(try asked.jsonObject()["error"] as? String == "use_dpop_nonce")
            let nonce = try #require(asked.headers[Self.nonceHeader])
            // Same jti: the refusal did not record it, so the retry is no replay.
            let retried = try await Self.signUp(h, client, email: "ada@example.com", nonce: nonce, jti: jti)
            #expect(try retried.decode(TokenResponse.self).tokenType == "DPoP")
            #expect(retried.headers[Self.nonceHeader] != nil)
            // Asked for a nonce is not a refused proof: nothing counted, nothing audited.
            #expect(!h.test.server.metrics.render().contains("auth_dpop_proofs_refused_total{"))
        }
    }

    @Test(arguments: TestDatabase.all)
    func aResourceRequestWithoutANonceIsChallengedAndTheRetrySucceeds(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database, nonce: true)
        try await h.test.run { client in
            let first = try await Self.signUp(h, client, email: "ada@example.com")
            let nonce = try #require(first.headers[Self.nonceHeader])
            let session = try await Self.signUp(h, client, email: "ada@example.com", nonce: nonce).decode(TokenResponse.self)
            let challenged = try await h.me(client, session.accessToken)
            #expect(challenged.status == .unauthorized)
            #expect(challenged.gatewayCode == "DPOP_PROOF_REQUIRED")
            #expect(challenged.headers[.wwwAuthenticate]?.hasPrefix(#"DPoP algs="ES256", error="use_dpop_nonce""#) == true)
            let fresh = try #require(challenged.headers[Self.nonceHeader])
            var headers = h.key.headers(h.key.proof(
                "GET", url: DPoPHarness.base + "/v1/auth/me", iat: h.iat, accessToken: session.accessToken, nonce: fresh))
            headers[.authorization] = "DPoP \(session.accessToken)"
            let me = try await client.send(.get, "/v1/auth/me", headers: headers)
            #expect(me.status == .ok)
            #expect(me.headers[Self.nonceHeader] != nil)
        }
    }

    @Test(arguments: TestDatabase.all)
    func aStaleNonceIsRefusedAndThePreviousWindowsIsAccepted(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database, nonce: true)
        try await h.test.run { client in
            let nonce = try #require(try await Self.signUp(h, client, email: "ada@example.com").headers[Self.nonceHeader])
            await h.test.clock.advance(by: DPoPNonces.window)
            #expect(try await Self.signUp(h, client, email: "ada@example.com", nonce: nonce).status == .ok)
            await h.test.clock.advance(by: DPoPNonces.window)
            let stale = try await Self.signUp(h, client, email: "bob@example.com", nonce: nonce)
            #expect(stale.goTrueErrorCode == "use_dpop_nonce")
            #expect(stale.headers[Self.nonceHeader] != nonce)
        }
    }

    @Test(arguments: TestDatabase.all)
    func aForgedNonceIsRefused(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database, nonce: true)
        try await h.test.run { client in
            let now = h.test.clock.now
            // The right shape under another server's KEK, and a made-up string.
            let otherServers = DPoPNonces(kek: try KeyEncryptionKey(rawValue: Data(repeating: 7, count: 32))).nonce(at: now)
            for forged in [otherServers, Base64URL.encode(Data(repeating: 0, count: 32)), ""] {
                let refused = try await Self.signUp(h, client, email: "ada@example.com", nonce: forged)
                #expect(refused.status == .badRequest)
                #expect(refused.goTrueErrorCode == "use_dpop_nonce")
            }
        }
    }

    @Test(arguments: TestDatabase.all)
    func aNonceRefusalOfAStrangersRefreshIsNotCountedAsTheft(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database, nonce: true)
        try await h.test.run { client in
            let nonce = try #require(try await Self.signUp(h, client, email: "ada@example.com").headers[Self.nonceHeader])
            let session = try await Self.signUp(h, client, email: "ada@example.com", nonce: nonce).decode(TokenResponse.self)
            let stranger = try await h.refresh(client, session.refreshToken, headers: h.tokenProof(by: DPoPTestKey()))
            #expect(stranger.goTrueErrorCode == "use_dpop_nonce")
            let audit = try await h.test.server.store.auditLog(page: 1, perPage: 50).entries
            #expect(!audit.contains { $0.action == "dpop_proof_refused" })
            #expect(!h.test.server.metrics.render().contains("auth_dpop_proofs_refused_total{"))
            let owner = try await h.refresh(client, session.refreshToken, headers: h.tokenProof(nonce: nonce))
            #expect(try owner.decode(TokenResponse.self).tokenType == "DPoP")
        }
    }

    @Test func noncesOffIgnoreANonceAndHandNoneOut() async throws {
        let h = try await DPoPHarness.make(.sqlite)
        try await h.test.run { client in
            let session = try await Self.signUp(h, client, email: "ada@example.com", nonce: "anything")
            #expect(try session.decode(TokenResponse.self).tokenType == "DPoP")
            #expect(session.headers[Self.nonceHeader] == nil)
        }
    }

    @Test func aRequestWithoutAProofGetsNoNonceAndStaysUnbound() async throws {
        let h = try await DPoPHarness.make(.sqlite, nonce: true)
        try await h.test.run { client in
            let response = try await client.send(
                .post, "/auth/v1/signup", json: #"{"email":"ada@example.com","password":"correct-horse"}"#)
            #expect(try response.decode(TokenResponse.self).tokenType == "bearer")
            #expect(response.headers[Self.nonceHeader] == nil)
        }
    }

    @Test func theSwitchReadsFlagThenEnvironment() throws {
        #expect(try AuthServerConfiguration.resolve(.init(), environment: [:]).dpopNonce == false)
        #expect(try AuthServerConfiguration.resolve(.init(), environment: ["AUTH_SERVER_DPOP_NONCE": "true"]).dpopNonce)
        var flags = ConfigurationOverrides()
        flags.dpopNonce = true
        #expect(try AuthServerConfiguration.resolve(flags, environment: ["AUTH_SERVER_DPOP_NONCE": "false"]).dpopNonce)
        #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(.init(), environment: ["AUTH_SERVER_DPOP_NONCE": "maybe"])
        }
        // --require-dpop still reads the same way beside it.
        #expect(try AuthServerConfiguration.resolve(.init(), environment: ["AUTH_SERVER_REQUIRE_DPOP": "on"]).requireDPoP)
    }

    @Test func aNonceLivesForItsWindowAndTheNext() {
        let nonces = DPoPNonces(kek: .embeddedDefault)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let nonce = nonces.nonce(at: start)
        #expect(nonces.accepts(nonce, at: start))
        #expect(nonces.accepts(nonce, at: start + DPoPNonces.window))
        #expect(!nonces.accepts(nonce, at: start + 2 * DPoPNonces.window))
        #expect(!nonces.accepts(nonce, at: start - DPoPNonces.window))
        #expect(!nonces.accepts(nil, at: start))
    }
}
