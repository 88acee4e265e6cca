import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The launch race of the seed apps: a SwiftUI `.task` asks for a token
/// before the Keychain read has finished.
@Suite(.timeLimit(.minutes(1)))
struct LaunchRaceTests {
    /// A store holding a valid session of the fake's user, and a client on it that has not restored.
    static func seeded(_ world: World = .goTrue) async throws -> (WorldFixture, Session, GatedStore) {
        let signer = await WorldFixture.make(world)
        let session = try await signer.signIn()
        let store = GatedStore()
        try await store.seed(StoredSession(session, sequence: 1))
        return (signer.sibling(store: store), session, store)
    }

    @Test func aNewClientIsRestoringNotSignedOut() async throws {
        let (f, _, _) = try await Self.seeded()
        #expect(f.client.currentState == .restoring)
    }

    @Test(arguments: World.allCases)
    func aTokenAskedForBeforeRestoreWaitsForIt(world: World) async throws {
        let (f, session, store) = try await Self.seeded(world)
        let gate = FakeGate()
        await store.holdNextLoad(gate)
        let restore = Task { try await f.client.restore() }
        await gate.waitForArrivals(1)
        // The read is in progress: a request now must wait, not say "not signed in".
        let token = Task { try await f.client.accessToken() }
        await Task.yield()
        #expect(f.client.currentState == .restoring)
        await gate.open()
        #expect(try await token.value == session.accessToken)
        #expect(try await restore.value == .signedIn(session))
    }

    @Test func aTokenAskedForWithoutRestoreRestoresFirst() async throws {
        let (f, session, _) = try await Self.seeded()
        #expect(try await f.client.accessToken() == session.accessToken)
        #expect(f.client.currentState == .signedIn(session))
    }

    @Test func theWaitForRestoreIsBounded() async throws {
        let (f, _, store) = try await Self.seeded()
        let gate = FakeGate()
        await store.holdNextLoad(gate)
        let token = Task { try await f.client.accessToken() }
        // Bounded: a client that does not restore first never reads the store.
        let reading = await eventually { await gate.arrivals >= 1 }
        #expect(reading, "the token call did not start the launch read")
        guard reading else {
            token.cancel()
            return
        }
        #expect(await f.clock.waitForSleepers(count: 1))
        await f.clock.advance(by: SessionDefaults.restoreWait)
        await #expect(throws: SessionError.storeUnavailable) { try await token.value }
        await gate.open()
    }

    /// Two restores at once used to bump the generation under the first one's
    /// refresh: its result was dropped and the state left at `offline` while online.
    @Test(arguments: World.allCases)
    func restoringTwiceNeverLeavesTheStateOffline(world: World) async throws {
        let (f, old, _) = try await Self.seeded(world)
        f.expireAccessToken()
        let gate = FakeGate()
        await f.injectOnRefresh(.hold(gate))
        let first = Task { try await f.client.restore() }
        let second = Task { try await f.client.restore() }
        await gate.waitForArrivals(1)
        await gate.open()
        let states = [try await first.value, try await second.value]
        for state in states {
            guard case .signedIn(let session) = state else {
                Issue.record("expected signedIn, got \(state)")
                continue
            }
            #expect(session.refreshToken != old.refreshToken)
        }
        guard case .signedIn = f.client.currentState else {
            Issue.record("expected signedIn, got \(f.client.currentState)")
            return
        }
        #expect(await f.refreshCount() == 1)
        // And once more, later: still signed in, no flash of `restoring`.
        #expect(try await f.client.restore().isSignedIn)
    }

    @Test(arguments: World.allCases)
    func anExpiredSessionAtLaunchOfflineIsKept(world: World) async throws {
        let (f, old, _) = try await Self.seeded(world)
        f.expireAccessToken()
        await f.injectOnRefresh(.drop(.notConnectedToInternet))
        let state = try await f.client.restore()
        #expect(state == .offline(old))
        #expect(try await f.client.refresh().refreshToken != old.refreshToken)
    }
}
