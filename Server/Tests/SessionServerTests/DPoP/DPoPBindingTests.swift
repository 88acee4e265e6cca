import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import Testing
@testable import SessionServer

/// Binding rules that are not attacks (docs/DPOP.md, "Binding").
struct DPoPBindingTests {
    /// An unmodified GoTrue client (no proof) of an unbound session works exactly as before.
    @Test(arguments: TestDatabase.all)
    func aProoflessClientOfAnUnboundSessionWorksAsBefore(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database)
        try await h.test.run { client in
            let session = try await client.signUp()
            #expect(session.tokenType == "bearer")
            #expect(try DPoPHarness.confirmation(of: session.accessToken) == nil)
            let refreshed = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            #expect(refreshed.tokenType == "bearer")
            #expect(try await client.send(.get, "/v1/auth/me", bearer: refreshed.accessToken).status == .ok)
            #expect(try await client.send(.get, "/auth/v1/user", bearer: refreshed.accessToken).status == .ok)
        }
    }

    @Test(arguments: TestDatabase.all)
    func anUnboundSessionRefreshedWithAProofBecomesBound(database: TestDatabase) async throws {
        let h = try await DPoPHarness.make(database)
        try await h.test.run { client in
            let session = try await client.signUp()
            let bound = try await h.refresh(client, session.refreshToken, headers: h.tokenProof()).decode(TokenResponse.self)
            #expect(bound.tokenType == "DPoP")
            #expect(try DPoPHarness.confirmation(of: bound.accessToken) == h.key.thumbprint)
            #expect(try await h.refresh(client, bound.refreshToken).goTrueErrorCode == "invalid_dpop_proof")
        }
    }

    @Test func aPasswordSignInWithAProofIsBound() async throws {
        let h = try await DPoPHarness.make(.sqlite)
        try await h.test.run { client in
            _ = try await client.signUp()
            let signedIn = try await client.send(
                .post, "/auth/v1/token?grant_type=password", json: #"{"email":"ada@example.com","password":"correct-horse"}"#,
                headers: h.tokenProof()
            ).decode(TokenResponse.self)
            #expect(signedIn.tokenType == "DPoP")
        }
    }

    @Test func requireDPoPRefusesAProoflessGrant() async throws {
        let h = try await DPoPHarness.make(.sqlite, require: true)
        try await h.test.run { client in
            let refused = try await client.send(
                .post, "/auth/v1/signup", json: #"{"email":"ada@example.com","password":"correct-horse"}"#)
            #expect(refused.status == .badRequest)
            #expect(refused.goTrueErrorCode == "invalid_dpop_proof")
            #expect(try await h.signUpBound(client).tokenType == "DPoP")
            let settings = try await client.send(.get, "/auth/v1/settings").jsonObject()
            #expect(settings["dpop_required"] as? Bool == true)
            #expect(settings["dpop_signing_alg_values_supported"] as? [String] == ["ES256"])
        }
    }
}
