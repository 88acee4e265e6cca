import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionKit
import SessionKitTesting
import SessionServer

/// Where one device event plays: the group's live server (straight, no
/// fault proxy: these rows are about the device, not the network), one
/// device with its own clock and keychain, and the log of what its
/// processes sent.
final class DeviceBench: @unchecked Sendable {
    let serverURL: URL
    let serverClock: ManualClock
    let transport: URLSessionTransport
    let logger: Logger
    let deviceClock: ManualClock
    let keychain = SimulatedDeviceKeychain()
    let wire = WireLog()
    let lifecycle = ScriptedAppLifecycle()
    let sabotage: HarnessSabotage?
    let email: String
    let password = "sim-password-9"
    let directory: URL
    // `@unchecked`: the report is only touched by the event's own sequential steps.
    var report: DeviceEventReport
    /// The life is anonymous (issue 40, item 6): row 9 plays its anonymous scene too.
    var anonymous = false
    /// Set when that scene's phone lost the anonymous account.
    var anonymousAccountLost = false
    /// The life proves possession of a key (issue 43, item 11): row 9 plays its DPoP scene too.
    var dpop = false
    /// Set when that scene was played to its end.
    var dpopRestorePlayed = false

    init(event: DeviceEvent, life: Int, seed: UInt64, world: SimulationWorld, sabotage: HarnessSabotage?) {
        self.serverURL = world.serverURL
        self.serverClock = world.serverClock
        self.transport = world.cleanTransport
        self.logger = world.logger
        self.deviceClock = ManualClock(start: world.serverClock.now)
        self.sabotage = sabotage
        self.email = "device\(life)-\(seed)@sim.test"
        self.directory = AppLife.storageRoot.appendingPathComponent("sessionkit-device-\(seed)-\(UUID().uuidString)")
        self.report = DeviceEventReport(event: event)
    }

    func note(_ line: String) { report.trace.append(line) }

    /// A client of process `process` on `store`, its requests logged under that name.
    func client(
        _ process: String, store: any SessionStore, automaticRefresh: Bool = true, dpop: DPoPConfiguration? = nil
    ) -> SessionClient {
        var configuration = SessionClientConfiguration(
            backend: .goTrue(url: serverURL, apiKey: "anon-key"), store: store, clock: deviceClock,
            transport: MiddlewareTransport(
                base: transport, middlewares: [wire.tap(process), ServerDateMiddleware(serverClock: serverClock)]),
            launchValidation: .blocking, jitter: .fixed(0), automaticRefresh: automaticRefresh, logger: logger,
            appLifecycle: lifecycle)
        configuration.dpop = dpop
        return SessionClient(configuration: configuration, sabotage: sabotage?.clientDefect)
    }

    /// The app's keychain store: the app's own process on this device.
    func keychainStore(
        groups: [String] = InMemoryKeychain.defaultAccessGroups, service: String = KeychainSessionStore.defaultService,
        accessGroup: String? = nil, previousServices: [String] = [], protectedData: any ProtectedDataAvailability = AlwaysAvailableProtectedData(),
        lockDirectory: URL? = nil, accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
        on device: SimulatedDeviceKeychain? = nil
    ) -> KeychainSessionStore {
        KeychainSessionStore(
            keychain: (device ?? keychain).process(accessGroups: groups), service: service, accessGroup: accessGroup,
            accessibility: accessibility, previousServices: previousServices, lockDirectory: lockDirectory,
            protectedData: protectedData, protectedDataWait: .milliseconds(1))
    }

    /// Time passes in the foreground: due timers fire and their requests finish.
    func foreground(_ seconds: TimeInterval) async {
        serverClock.set(to: serverClock.now.addingTimeInterval(seconds))
        await deviceClock.advance(by: seconds)
        await settle()
    }

    /// Time passes with every process suspended (no timer fires).
    func background(_ seconds: TimeInterval) {
        serverClock.set(to: serverClock.now.addingTimeInterval(seconds))
        deviceClock.set(to: deviceClock.now.addingTimeInterval(seconds))
    }

    /// Waits until no request of this device is on the wire for a few rounds.
    func settle() async {
        var quietRounds = 0
        while quietRounds < 3 {
            for _ in 0..<16 { await Task.yield() }
            if wire.requestsInFlight == 0 {
                quietRounds += 1
            } else {
                quietRounds = 0
                do { try await Task.sleep(nanoseconds: 100_000) } catch { return }
            }
        }
    }

    /// Creates the person's account from another device and hands back its first session's tokens.
    func signUpElsewhere(email: String? = nil) async throws -> Session {
        let email = email ?? self.email
        let other = client("sign-up", store: InMemorySessionStore(), automaticRefresh: false)
        _ = try await other.restore()
        guard case .signedIn(let session) = try await other.signUp(email: email, password: password) else {
            throw SimulationError.signUpFailed(email)
        }
        await other.shutdown()
        return session
    }

    func removeDirectory() {
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            // Never created, or already gone: a temporary directory costs disk only.
        }
    }
}
