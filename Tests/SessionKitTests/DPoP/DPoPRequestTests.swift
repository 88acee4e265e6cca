import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit
import SessionKitTesting
import Testing

/// Proofs on token and API requests, against a fake that checks them by docs/DPOP.md.
struct DPoPRequestTests {
    @Test func bindsTheSessionAtSignInAndSignsEveryRequestAfresh() async throws {
        let rig = DPoPRig.make()
        let session = try await rig.signIn()
        #expect(session.tokenType == "DPoP")
        #expect(try await rig.get("/v1/items?page=2").statusCode == 200)
        #expect(try await rig.get("/v1/items").statusCode == 200)
        let requests = rig.server.requests
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.proof != nil })
        let token = try #require(requests[0].proof)
        #expect(token.ath == nil)  // no `ath` on /token
        let api = try #require(requests[1].proof)
        #expect(requests[1].authorization?.hasPrefix("DPoP ") == true)
        #expect(api.htu == "https://api.example.com/v1/items")
        #expect(api.ath != nil)
        #expect(api.jkt == token.jkt)
        #expect(Set(requests.compactMap(\.proof?.jti)).count == 3)
        #expect(requests.allSatisfy { $0.proof?.jwkMembers == ["kty", "crv", "x", "y"] })
    }

    @Test func sendsBearerWithoutProofsWhenDPoPIsOff() async throws {
        let rig = DPoPRig.make(dpop: false)
        #expect(try await rig.signIn().tokenType == "bearer")
        #expect(try await rig.get("/v1/items").statusCode == 200)
        #expect(rig.server.requests.allSatisfy { $0.proof == nil && $0.refusal == nil })
        #expect(rig.server.requests[1].authorization?.hasPrefix("Bearer ") == true)
    }

    @Test func retriesOnceWithTheServersNonceOnTokenAndAPIRequests() async throws {
        let rig = DPoPRig.make()
        rig.server.withLock { $0.requiresNonce = true }
        _ = try await rig.signIn()
        // The token request: refused for want of the nonce, then sent again with it.
        #expect(rig.server.requests.map(\.refusal) == ["nonce", nil])
        #expect(rig.server.requests[1].proof?.nonce == "nonce-1")
        // Nonces are kept per origin: the API's first request learns its own, then carries it.
        #expect(try await rig.get("/v1/items").statusCode == 200)
        #expect(try await rig.get("/v1/items").statusCode == 200)
        #expect(rig.server.requests.dropFirst(2).map(\.refusal) == ["nonce", nil, nil])
        // The server moves to a new nonce: one 401 `use_dpop_nonce`, one retry with it.
        rig.server.withLock { $0.nonce = "nonce-2" }
        #expect(try await rig.get("/v1/items").statusCode == 200)
        let last = rig.server.requests.suffix(2)
        #expect(last.map(\.refusal) == ["nonce", nil])
        #expect(last.last?.proof?.nonce == "nonce-2")
    }

    @Test func retriesForANonceOnlyOnceAndKeepsTheSession() async throws {
        let rig = DPoPRig.make()
        _ = try await rig.signIn()
        rig.server.withLock { $0.alwaysAsksForNonce = true }
        let before = rig.server.requests.count
        #expect(try await rig.get("/v1/items").statusCode == 401)
        let sent = rig.server.requests.dropFirst(before)
        // Two API requests (the first and the one retry), no refresh, session kept.
        #expect(sent.count == 2)
        #expect(sent.allSatisfy { $0.url.host == "api.example.com" })
        #expect(rig.client.currentState.isSignedIn)
    }

    @Test func givesARedirectItsOwnProof() async throws {
        let rig = DPoPRig.make()
        _ = try await rig.signIn()
        #expect(try await rig.get("/v1/redirect").statusCode == 200)
        let hops = rig.server.requests.suffix(2)
        #expect(hops.map { $0.proof?.htu } == ["https://api.example.com/v1/redirect", "https://api.example.com/v1/target"])
        #expect(Set(hops.compactMap(\.proof?.jti)).count == 2)
    }

    @Test func givesTheForcedRefreshRetryItsOwnProof() async throws {
        let rig = DPoPRig.make()
        let first = try await rig.signIn()
        rig.server.withLock { $0.rejectNextAPIRequests = 1 }
        #expect(try await rig.get("/v1/items").statusCode == 200)
        let sent = Array(rig.server.requests.dropFirst(1))
        // The rejected request, the refresh (a proof by the same key), the retry with the new token.
        #expect(sent.map(\.url.path) == ["/v1/items", "/auth/v1/token", "/v1/items"])
        #expect(sent.allSatisfy { $0.proof != nil })
        #expect(sent[1].proof?.jkt == sent[0].proof?.jkt)
        #expect(sent[0].proof?.ath != sent[2].proof?.ath)
        #expect(Set(sent.compactMap(\.proof?.jti)).count == 3)
        #expect(await rig.client.currentSession?.accessToken != first.accessToken)
    }
}
