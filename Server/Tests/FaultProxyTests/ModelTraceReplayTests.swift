import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitFaultProxy
import SessionKitTesting
import SessionServer
import Testing

/// The model's counterexamples (docs/PROTOCOL.md, "Counterexamples"), walked
/// by hand through the real client, the real auth-server and the fault
/// proxy, with one test clock for both. Each trace runs twice: with the
/// client defect the model planted, the real stack fails as the model says;
/// with the real client, the same steps keep the session.
struct ModelTraceReplayTests {
    /// SKIP_REREAD (planted as `skip-lock-and-reread`): C1 never looks at what
    /// C2 wrote, presents token 1 after C2 rotated twice, and the server
    /// detects reuse (P2).
    @Test(arguments: [true, false])
    func skipReread(sabotaged: Bool) async throws {
        try await ProxiedServer.run { stack in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let sabotage: Sabotage? = sabotaged ? Sabotage(name: "skip-lock-and-reread") : nil
            let c2 = Self.client(stack, folder, sabotage)
            let c1 = Self.client(stack, folder, sabotage)
            _ = try await c2.restore()
            let first = try #require(try await Self.signUp(c2, "reread-\(sabotaged)@trace.test"), "sign-up did not sign in")
            _ = try await c1.restore()  // both hold token 1
            // C2: access token expired; sends refresh token 1; server: rotated 1 -> 2; C2 saves.
            Self.expire(stack.clock)
            _ = try await c2.accessToken()
            // grace of 1 runs out
            stack.clock.set(to: stack.clock.now.addingTimeInterval(SessionDefaults.refreshReuseGrace + 1))
            // C2: refresh token 2; server: rotated 2 -> 3; C2 saves.
            _ = try await c2.refresh()
            // C1: access token expired; (sabotaged: no re-read) sends refresh token 1.
            _ = try? await c1.accessToken()
            let sessionID = try #require(first.sessionID)
            let family = try #require(try await stack.server.store.session(id: sessionID))
            if sabotaged {
                #expect(family.isRevoked && family.revokedReason == "reuse", "the model's P2 violation did not happen on the real stack")
            } else {
                #expect(!family.isRevoked, "the real client caused reuse detection: \(family.revokedReason ?? "")")
                #expect(c1.currentState.isSignedIn)
            }
            await c1.shutdown()
            await c2.shutdown()
        }
    }

    /// PERSIST_NOTHING: C2 rotates twice without saving; the store is two
    /// rotations behind the server (P3), and a relaunch more than the grace
    /// later presents token 1: reuse detection, the person signed out.
    @Test(arguments: [true, false])
    func persistNothing(sabotaged: Bool) async throws {
        try await ProxiedServer.run { stack in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let c2 = Self.client(stack, folder, sabotaged ? Sabotage(name: "persist-nothing") : nil)
            _ = try await c2.restore()
            let first = try #require(try await Self.signUp(c2, "persist-\(sabotaged)@trace.test"), "sign-up did not sign in")
            Self.expire(stack.clock)
            _ = try await c2.accessToken()  // rotated 1 -> 2 (sabotaged: installed WITHOUT saving)
            stack.clock.set(to: stack.clock.now.addingTimeInterval(SessionDefaults.refreshReuseGrace + 1))
            _ = try await c2.refresh()  // rotated 2 -> 3
            let stored = try await FileSessionStore(directory: folder).load()
            #expect((stored?.refreshToken == first.refreshToken) == sabotaged, "store two rotations behind: \(sabotaged)")
            // C2 KILLED (no shutdown); relaunched from the store more than the grace later.
            stack.clock.set(to: stack.clock.now.addingTimeInterval(SessionDefaults.refreshReuseGrace + 1))
            let relaunched = Self.client(stack, folder, nil)
            _ = try await relaunched.restore()
            Self.expire(stack.clock)
            _ = try? await relaunched.accessToken()
            let sessionID = try #require(first.sessionID)
            let family = try #require(try await stack.server.store.session(id: sessionID))
            #expect(family.isRevoked == sabotaged, "revoked: \(family.isRevoked) (\(family.revokedReason ?? "")), sabotaged: \(sabotaged)")
            #expect(relaunched.currentState.isSignedIn == !sabotaged)
            await relaunched.shutdown()
        }
    }

    /// TRANSIENT_ENDS: the refresh request is lost before the server (the
    /// proxy resets it); the planted client reports the session ended while
    /// the server still holds the family (P1). The real client keeps it.
    @Test(arguments: [true, false])
    func transientEnds(sabotaged: Bool) async throws {
        let armed = ArmedFault(.resetBeforeForwarding)
        try await ProxiedServer.run(plan: FaultPlan {
            $0.target.contains("grant_type=refresh_token") ? armed.take() : nil
        }) { stack in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let c2 = Self.client(stack, folder, sabotaged ? Sabotage(name: "transient-ends-session") : nil)
            _ = try await c2.restore()
            let first = try #require(try await Self.signUp(c2, "transient-\(sabotaged)@trace.test"), "sign-up did not sign in")
            Self.expire(stack.clock)
            armed.arm()  // request LOST before the server
            _ = try? await c2.accessToken()
            let sessionID = try #require(first.sessionID)
            let family = try #require(try await stack.server.store.session(id: sessionID))
            #expect(!family.isRevoked)
            #expect(c2.currentState.isSignedIn == !sabotaged, "an end reported while the family lives: \(sabotaged)")
            #expect(stack.proxy.statistics.faults[ProxyFault.resetBeforeForwarding.name] == 1)
            await c2.shutdown()
        }
    }

    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)", isDirectory: true)
    }

    static func expire(_ clock: ManualClock) {
        clock.set(to: clock.now.addingTimeInterval(SessionDefaults.accessTokenLifetime + 1))
    }

    /// One process: its own `FileSessionStore` on the shared folder, through the proxy.
    /// A client on `folder` that does not hear the other process's writes.
    ///
    /// The model's traces have processes that learn of each other only through
    /// the store under the lock (rule A). A process that hears a write at once
    /// (docs/PROTOCOL.md, "Hearing other processes") adopts the newer record
    /// before its own refresh, which hides the very defect a sabotaged replay
    /// must show: rule A alone is what these replays test.
    static func client(_ stack: ProxiedServer, _ folder: URL, _ sabotage: Sabotage?) -> SessionClient {
        RefreshThroughFaultsTests.client(
            stack: stack, url: stack.proxy.url, store: UnhearingStore(base: FileSessionStore(directory: folder)),
            sabotage: sabotage)
    }

    /// A ``FileSessionStore`` without its change notifier.
    struct UnhearingStore: SessionStore {
        let base: FileSessionStore

        func load() async throws(SessionStoreError) -> StoredSession? { try await base.load() }
        func save(_ session: StoredSession) async throws(SessionStoreError) { try await base.save(session) }
        func clear() async throws(SessionStoreError) { try await base.clear() }
        func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock { try await base.lockForRefresh() }
        func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
            try await base.lockForRefresh(waitingAtMost: seconds)
        }
        var changeNotifier: (any StoreChangeNotifier)? { nil }
    }

    /// Signs up through `client`: the session (holding token 1), or `nil` if it did not sign in.
    static func signUp(_ client: SessionClient, _ email: String) async throws -> Session? {
        if case .signedIn(let session) = try await client.signUp(email: email, password: "trace-password-9") { return session }
        return nil
    }
}
