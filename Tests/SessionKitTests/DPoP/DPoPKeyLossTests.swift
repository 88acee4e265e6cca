import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit
import SessionKitTesting
import Testing

/// A bound session without its key ends once, with its own reason; a key out of reach for now ends nothing.
struct DPoPKeyLossTests {
    @Test func endsABoundSessionOnceWhenTheKeyIsGone() async throws {
        let phone = DPoPRig.make()
        _ = try await phone.signIn()
        // A Keychain reset: the record is still there, the key is not.
        _ = phone.keychain.delete(KeychainDPoPKeyStore.defaultItem)
        let relaunched = phone.relaunched()
        let logouts = LogoutCounter(relaunched.client)
        let state = try await relaunched.client.restore()
        #expect(state == .expired(reason: SessionError.proofKeyLost.message))
        await #expect(throws: SessionError.notSignedIn) { _ = try await relaunched.get("/v1/items") }
        #expect(try await relaunched.store.load()?.holdsSession != true)
        await relaunched.client.shutdown()
        #expect(await logouts.total() == 1)
    }

    @Test func signsOutARestoredRecordOnANewDeviceAndLeavesTheOldOneSignedIn() async throws {
        let phone = DPoPRig.make()
        _ = try await phone.signIn()
        let record = try #require(try await phone.store.load())
        // The backup restored onto a new phone: the store's record, none of the old Keychain's `ThisDeviceOnly` items.
        let newPhone = DPoPRig.make(server: phone.server, store: InMemorySessionStore(record))
        let state = try await newPhone.client.restore()
        #expect(state == .expired(reason: SessionError.proofKeyLost.message))
        #expect(newPhone.server.requests.count == 1)  // nothing sent from the new phone
        // The old phone keeps its session: it calls the API and refreshes.
        #expect(try await phone.get("/v1/items").statusCode == 200)
        try await phone.client.refresh()
        #expect(phone.client.currentState.isSignedIn)
    }

    @Test func keepsTheSessionWhileTheKeyIsLockedAndUsesItOnceUnlocked() async throws {
        let phone = DPoPRig.make()
        _ = try await phone.signIn()
        // A prewarmed launch before the first unlock: the key's item answers errSecInteractionNotAllowed.
        phone.keychain.lockBeforeFirstUnlock()
        let relaunched = phone.relaunched()
        let state = try await relaunched.client.restore()
        #expect(state.isSignedIn)
        let error = await #expect(throws: SessionError.proofKeyUnavailable) { _ = try await relaunched.get("/v1/items") }
        #expect(error.map(\.isTransient) == true)
        // The proof belongs to the request: the token itself is still handed out from memory.
        #expect(try await relaunched.client.accessToken().isEmpty == false)
        #expect(relaunched.client.currentState.isSignedIn)
        #expect(try await relaunched.store.load()?.holdsSession == true)
        phone.keychain.unlock()
        #expect(try await relaunched.get("/v1/items").statusCode == 200)
    }

    @Test func neverEndsASessionOverARefusedProof() async throws {
        let phone = DPoPRig.make()
        _ = try await phone.signIn()
        let record = try #require(try await phone.store.load())
        // Another key (a stranger's copy with a key of its own): the server refuses the refresh's proof.
        let stranger = DPoPRig.make(server: phone.server, store: InMemorySessionStore(record))
        _ = try KeychainDPoPKeyStore(keychain: stranger.keychain).createKey()
        _ = try await stranger.client.restore()
        let error = await #expect(throws: SessionError.self) { try await stranger.client.refresh() }
        #expect(error?.goTrueErrorCode?.rawValue == "invalid_dpop_proof")
        #expect(error != .sessionExpired)
        #expect(stranger.client.currentState.isSignedIn)
        // Nor does the API's `DPOP_PROOF_REQUIRED`: its forced refresh is refused again, the session is kept.
        await #expect(throws: SessionError.refreshRefused) { _ = try await stranger.get("/v1/items") }
        #expect(stranger.server.requests.last?.refusal == nil)
        #expect(stranger.client.currentState.isSignedIn)
    }

    @Test func decodesARecordFromBeforeDPoPAsUnbound() throws {
        let old = #"{"version":1,"access_token":"a","refresh_token":"r","expires_at":"2026-11-28T03:00:00Z","sequence":3}"#
        let record = try JSONDecoder.iso8601().decode(StoredSession.self, from: Data(old.utf8))
        #expect(record.tokenType == "bearer")
        let bound = StoredSession(accessToken: "a", refreshToken: "r", tokenType: "DPoP", expiresAt: nil)
        let roundTrip = try JSONDecoder.iso8601().decode(StoredSession.self, from: try JSONEncoder.iso8601().encode(bound))
        #expect(roundTrip.session.tokenType == "DPoP")
    }
}

extension JSONDecoder {
    fileprivate static func iso8601() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension JSONEncoder {
    fileprivate static func iso8601() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}
