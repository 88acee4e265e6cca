import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit
import SessionKitTesting

/// One device against ``DPoPFakeServer``: its keychain (where the DPoP key lives), its store and its client.
struct DPoPRig {
    let clock: ManualClock
    let server: DPoPFakeServer
    let keychain: InMemoryKeychain
    let store: InMemorySessionStore
    let client: SessionClient

    /// A device; pass `server` to put a second device on the same server, `dpop: false` for DPoP off.
    static func make(
        server: DPoPFakeServer? = nil, serverOffset: TimeInterval = 0, keychain: InMemoryKeychain = InMemoryKeychain(),
        store: InMemorySessionStore = InMemorySessionStore(), dpop: Bool = true
    ) -> DPoPRig {
        let clock = server?.clock ?? ManualClock()
        let server = server ?? DPoPFakeServer(clock: clock, serverOffset: serverOffset)
        let keyStore: (any DPoPKeyStore)? = dpop ? KeychainDPoPKeyStore(keychain: keychain) : nil
        let client = SessionClient(configuration: server.configuration(store: store, keyStore: keyStore))
        return DPoPRig(clock: clock, server: server, keychain: keychain, store: store, client: client)
    }

    /// The same device (keychain and store) after a relaunch: a new client.
    func relaunched() -> DPoPRig {
        DPoPRig.make(server: server, keychain: keychain, store: store)
    }

    func signIn() async throws -> Session {
        try await client.signIn(email: "a@example.com", password: "password-123")
    }

    func get(_ path: String, on base: URL = DPoPFakeServer.apiURL) async throws -> HTTPURLResponse {
        try await client.send(URLRequest(url: URL(string: path, relativeTo: base)!.absoluteURL)).1
    }
}
