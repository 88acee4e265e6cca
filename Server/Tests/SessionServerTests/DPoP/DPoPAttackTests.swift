import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import Testing
@testable import SessionServer

/// Issue 43, item 10: what a thief or a forger tries against DPoP-bound sessions (docs/DPOP.md).
struct DPoPAttackTests {
    @Test(arguments: TestDatabase.all)
    func aStolenRefreshTokenWithoutTheKeyIsRefusedAndTheSessionSurvives(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database)
        try await h.test.run { client in
            let session = try await h.signUpBound(client)
            #expect(session.tokenType == "DPoP")
            #expect(try DPoPHarness.confirmation(of: session.accessToken) == h.key.thumbprint)
            let stolen = try await h.refresh(client, session.refreshToken)
            #expect(stolen.status == .badRequest)
            #expect(stolen.goTrueErrorCode == "invalid_dpop_proof")
            #expect(try stolen.jsonObject()["error"] as? String == "invalid_dpop_proof")
            // Not consumed, family not revoked: the owner's next refresh works with the same token.
            let owner = try await h.refresh(client, session.refreshToken, headers: h.tokenProof()).decode(TokenResponse.self)
            #expect(owner.tokenType == "DPoP")
            let audit = try await h.test.server.store.auditLog(page: 1, perPage: 50).entries
            #expect(audit.contains { $0.action == "dpop_proof_refused" })
            #expect(h.test.server.metrics.render().contains(#"auth_dpop_proofs_refused_total{reason="missing"} 1"#))
        }
    }

    @Test(arguments: TestDatabase.all)
    func aProofByAnotherKeyIsRefused(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database)
        try await h.test.run { client in
            let session = try await h.signUpBound(client)
            let other = try await h.refresh(client, session.refreshToken, headers: h.tokenProof(by: DPoPTestKey()))
            #expect(other.status == .badRequest)
            #expect(other.goTrueErrorCode == "invalid_dpop_proof")
            #expect(try await h.me(client, session.accessToken, by: DPoPTestKey()).status == .unauthorized)
            #expect(try await h.refresh(client, session.refreshToken, headers: h.tokenProof()).status == .ok)
        }
    }

    @Test(arguments: TestDatabase.all)
    func aReplayedJTIIsRefused(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database)
        try await h.test.run { client in
            let session = try await h.signUpBound(client)
            let proof = h.tokenProof()
            let first = try await h.refresh(client, session.refreshToken, headers: proof).decode(TokenResponse.self)
            let replayed = try await h.refresh(client, first.refreshToken, headers: proof)
            #expect(replayed.status == .badRequest)
            #expect(replayed.goTrueErrorCode == "invalid_dpop_proof")
        }
    }

    @Test(arguments: TestDatabase.all)
    func aWrongMethodOrURLIsRefused(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database)
        try await h.test.run { client in
            let session = try await h.signUpBound(client)
            let wrongMethod = h.key.headers(h.key.proof("GET", url: DPoPHarness.base + "/auth/v1/token", iat: h.iat))
            #expect(try await h.refresh(client, session.refreshToken, headers: wrongMethod).status == .badRequest)
            let wrongURL = h.key.headers(h.key.proof(url: DPoPHarness.base + "/auth/v1/user", iat: h.iat))
            #expect(try await h.refresh(client, session.refreshToken, headers: wrongURL).status == .badRequest)
            let wrongHost = h.key.headers(h.key.proof(url: "http://evil.example/auth/v1/token", iat: h.iat))
            #expect(try await h.refresh(client, session.refreshToken, headers: wrongHost).status == .badRequest)
        }
    }

    @Test(arguments: TestDatabase.all)
    func anIATOutsideTheWindowIsRefused(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database)
        try await h.test.run { client in
            let session = try await h.signUpBound(client)
            for iat in [h.iat - 301, h.iat + 61] {
                let proof = h.key.headers(h.key.proof(url: DPoPHarness.base + "/auth/v1/token", iat: iat))
                #expect(try await h.refresh(client, session.refreshToken, headers: proof).status == .badRequest)
            }
        }
    }

    @Test(arguments: TestDatabase.all)
    func aBoundAccessTokenSentAsBearerIsRefused(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database)
        try await h.test.run { client in
            let session = try await h.signUpBound(client)
            let bearer = try await client.send(.get, "/v1/auth/me", bearer: session.accessToken)
            #expect(bearer.status == .unauthorized)
            #expect(bearer.gatewayCode == "DPOP_PROOF_REQUIRED")
            #expect(bearer.headers[.wwwAuthenticate]?.hasPrefix(#"DPoP algs="ES256", error="invalid_dpop_proof""#) == true)
            let goTrue = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken)
            #expect(goTrue.status == .unauthorized)
            #expect(goTrue.goTrueErrorCode == "invalid_dpop_proof")
            // Counted as the grants count theirs: a copied token tried on the resource side.
            #expect(h.test.server.metrics.render().contains(#"auth_dpop_proofs_refused_total{reason="missing"} 2"#))
            // The session is not ended: with its proof the same token works.
            #expect(try await h.me(client, session.accessToken).status == .ok)
        }
    }

    @Test(arguments: TestDatabase.all)
    func anATHOfAnotherTokenIsRefused(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database)
        try await h.test.run { client in
            let session = try await h.signUpBound(client)
            let other = Base64URL.encode(Data("another.access.token".utf8))
            let response = try await h.me(client, session.accessToken, ath: other)
            #expect(response.status == .unauthorized)
            #expect(response.gatewayCode == "DPOP_PROOF_REQUIRED")
        }
    }

    @Test(arguments: TestDatabase.all)
    func hs256NoneAndPrivateKeyProofsAreRefused(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database)
        try await h.test.run { client in
            let url = DPoPHarness.base + "/auth/v1/signup"
            let forged = [
                h.key.proof(url: url, iat: h.iat, alg: "HS256"),
                h.key.proof(url: url, iat: h.iat, alg: "none"),
                h.key.proof(url: url, iat: h.iat, extraJWK: #","d":"c2VjcmV0"#),
                h.key.proof(url: url, iat: h.iat, typ: "JWT"),
            ]
            for (index, proof) in forged.enumerated() {
                let response = try await client.send(
                    .post, "/auth/v1/signup", json: #"{"email":"f\#(index)@example.com","password":"correct-horse"}"#,
                    headers: h.key.headers(proof))
                #expect(response.status == .badRequest, "proof \(index)")
                #expect(response.goTrueErrorCode == "invalid_dpop_proof", "proof \(index)")
            }
        }
    }

    @Test(arguments: TestDatabase.all)
    func twoDPoPHeadersAreRefused(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database)
        try await h.test.run { client in
            let session = try await h.signUpBound(client)
            var headers = HTTPFields()
            let name = HTTPField.Name("DPoP")!
            headers.append(HTTPField(name: name, value: h.key.proof(url: DPoPHarness.base + "/auth/v1/token", iat: h.iat)))
            headers.append(HTTPField(name: name, value: h.key.proof(url: DPoPHarness.base + "/auth/v1/token", iat: h.iat)))
            #expect(try await h.refresh(client, session.refreshToken, headers: headers).status == .badRequest)
        }
    }
}
