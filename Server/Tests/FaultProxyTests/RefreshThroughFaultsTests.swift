import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore
import SessionKit
import SessionKitFaultProxy
import SessionKitTesting
import SessionServer
import Testing

/// A SessionKit client refreshing through every fault the proxy injects, on
/// real sockets: each failure is transient, the session is kept, the next
/// refresh recovers, and the server never sees reuse — including the worst
/// case, where the server committed the rotation and the answer was lost.
struct RefreshThroughFaultsTests {
    static let faults: [ProxyFault] = ProxyFault.named.values.sorted { $0.name < $1.name }

    @Test(arguments: faults)
    func aFaultedRefreshKeepsTheSessionAndTheNextOneRecovers(fault: ProxyFault) async throws {
        let armed = ArmedFault(fault)
        try await ProxiedServer.run(plan: FaultPlan {
            $0.target.contains("grant_type=refresh_token") ? armed.take() : nil
        }) { stack in
            let client = Self.client(stack: stack, url: stack.proxy.url)
            let logouts = LogoutCounter(client)
            _ = try await client.restore()
            let signUp = try await client.signUp(email: "faults-\(fault.name)@proxy.test", password: "proxy-password-9")
            guard case .signedIn(let first) = signUp else {
                Issue.record("sign-up did not sign in")
                return
            }

            armed.arm()
            let error = await #expect(throws: SessionError.self) { try await client.refresh() }
            #expect(error?.isTransient == true, "\(fault): \(String(describing: error))")
            #expect(client.currentState.isSignedIn)
            #expect(await client.currentSession?.refreshToken == first.refreshToken, "nothing half-saved")

            let recovered = try await client.refresh()
            #expect(recovered.refreshToken != first.refreshToken)
            let sessionID = try #require(first.sessionID)
            let family = try #require(try await stack.server.store.session(id: sessionID))
            #expect(!family.isRevoked, "\(fault): family revoked (\(family.revokedReason ?? ""))")
            let tokens = try await stack.server.store.refreshTokens(sessionID: sessionID)
            #expect(tokens.filter { $0.rotatedAt == nil }.count == 1)
            #expect(stack.proxy.statistics.faults[fault.name] == 1)
            await client.shutdown()
            #expect(await logouts.total() == 0)
        }
    }

    @Test func aRefusedRefreshKeepsTheSession() async throws {
        try await ProxiedServer.run { stack in
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("refused-\(UUID().uuidString)", isDirectory: true)
            defer { Self.remove(directory) }
            let direct = Self.client(stack: stack, url: stack.serverURL, store: FileSessionStore(directory: directory))
            _ = try await direct.restore()
            _ = try await direct.signUp(email: "refused@proxy.test", password: "proxy-password-9")
            await direct.shutdown()

            // The same stored session, on a device whose every connection is refused.
            let refused = Self.client(stack: stack, url: stack.proxy.refusedURL, store: FileSessionStore(directory: directory))
            _ = try await refused.restore()
            let error = await #expect(throws: SessionError.self) { try await refused.refresh() }
            #expect(error?.isTransient == true)
            #expect(refused.currentState.isSignedIn)
            await refused.shutdown()
        }
    }

    static func remove(_ directory: URL) {
        do { try FileManager.default.removeItem(at: directory) } catch {}  // a temporary folder; the OS cleans up after us
    }

    /// A client of `url` on the stack's clock; `sabotage` plants a client defect (test builds only).
    static func client(
        stack: ProxiedServer, url: URL, store: any SessionStore = InMemorySessionStore(), sabotage: Sabotage? = nil
    ) -> SessionClient {
        var quiet = Logger(label: "proxy-client")
        quiet.logLevel = .critical
        return SessionClient(
            configuration: SessionClientConfiguration(
                backend: .goTrue(url: url, apiKey: "anon-key"), store: store, clock: stack.clock,
                transport: MiddlewareTransport(
                    base: URLSessionTransport(requestTimeout: 15, resourceTimeout: 30),
                    middlewares: [ServerDateMiddleware(serverClock: stack.clock)]),
                launchValidation: .skip, jitter: .fixed(0), automaticRefresh: false, logger: quiet),
            sabotage: sabotage)
    }
}

/// A fault that strikes once, on the first refresh after `arm()`.
final class ArmedFault: @unchecked Sendable {
    private let fault: ProxyFault
    private let lock = NSLock()
    private var armed = false

    init(_ fault: ProxyFault) { self.fault = fault }
    func arm() { lock.withLock { armed = true } }
    func take() -> ProxyFault? {
        lock.withLock {
            defer { armed = false }
            return armed ? fault : nil
        }
    }
}
