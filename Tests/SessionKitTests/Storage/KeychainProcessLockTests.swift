import Foundation
import Testing
@testable import SessionKit
import SessionKitTesting

/// Two clients on one keychain store in one process, without a lock folder
/// (issue 31, row 8): they take turns, so a refresh token reaches the server once.
struct KeychainProcessLockTests {
    @Test func storesNamingOneItemShareTheLockOfThisProcess() async throws {
        let keychain = InMemoryKeychain()
        let first = KeychainFixture(keychain: keychain, accessGroup: nil).store
        let second = KeychainFixture(keychain: keychain, accessGroup: nil).store
        let held = try await first.lockForRefresh(waitingAtMost: 1)
        await #expect(throws: SessionStoreError.self) { _ = try await second.lockForRefresh(waitingAtMost: 0.05) }
        await held.unlock()
        let next = try await second.lockForRefresh(waitingAtMost: 1)
        await next.unlock()
        // Another item is another lock.
        let other = KeychainSessionStore(
            keychain: keychain, account: "other", previousServices: [], protectedData: AlwaysAvailableProtectedData())
        let both = (try await first.lockForRefresh(waitingAtMost: 1), try await other.lockForRefresh(waitingAtMost: 0.05))
        await both.0.unlock()
        await both.1.unlock()
    }

    @Test func twoClientsOnOneStoreSendOneRefresh() async throws {
        let store = KeychainFixture(keychain: InMemoryKeychain(), accessGroup: nil).store
        // A loaded machine must not turn the wait into "go on without the lock".
        let env = await SessionTestEnvironment.make(store: store, launchValidation: .skip) { $0.lockWait = 600 }
        try await env.signIn()
        let second = SessionClient(configuration: env.client.configuration)
        _ = try await second.restore()
        env.expireAccessToken()
        // The first client's refresh is held on the wire; the second needs a token meanwhile.
        let gate = FakeGate()
        await env.backend.inject(.hold(gate), on: .refresh)
        let one = Task { try await env.client.accessToken() }
        await gate.waitForArrivals(1)
        let two = Task { try await second.accessToken() }
        for _ in 0..<2_000 where await env.backend.count(.refresh) < 2 { await Task.yield() }
        await gate.open()
        let tokens = [try await one.value, try await two.value]
        #expect(tokens[0] == tokens[1])
        #expect(await env.backend.count(.refresh) == 1, "the same refresh token was sent twice")
        await second.shutdown()
        await env.client.shutdown()
    }
}
