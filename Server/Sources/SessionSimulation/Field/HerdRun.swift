import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionKit
import SessionKitTesting

/// One run of `HerdScenario` against a running server. Server and devices
/// share one manual clock (the herd is about timing, not skew).
struct HerdRun {
    let scenario: HerdScenario
    let serverURL: URL
    let clock: ManualClock
    let logger: Logger

    func run() async throws -> HerdReport {
        let count = scenario.devices
        let limiter = GoTrueTokenLimiter(clock: clock)
        let transport = URLSessionTransport()
        let stores = (0..<count).map { _ in InMemorySessionStore() }
        func client(_ index: Int, sabotage: HarnessSabotage?) -> SessionClient {
            let configuration = SessionClientConfiguration(
                backend: .goTrue(url: serverURL, apiKey: "anon-key"), store: stores[index], clock: clock,
                transport: MiddlewareTransport(
                    base: transport, middlewares: [limiter.device(index), ServerDateMiddleware(serverClock: clock)]),
                launchValidation: .blocking, jitter: .seeded(scenario.seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15),
                automaticRefresh: true, logger: logger)
            return SessionClient(configuration: configuration, sabotage: sabotage?.clientDefect)
        }
        // Sign-ups (not `/token`) a while before; then every app is killed in the background.
        for index in 0..<count {
            let first = client(index, sabotage: nil)
            _ = try await first.restore()
            _ = try await first.signUp(email: "herd\(index)-\(scenario.seed)@sim.test", password: "sim-password-9")
            await first.shutdown()
        }
        clock.set(to: clock.now.addingTimeInterval(2 * 3_600))
        limiter.start()
        let start = clock.now

        var random = SplitMix64(seed: scenario.seed)
        let launches = (0..<count).map { _ in random.uniform(0...scenario.resumeSpread) }
        let logouts = LogoutCount()
        var running: [Int: (client: SessionClient, listener: Task<Void, Never>)] = [:]
        var nextRequest: [Int: TimeInterval] = [:]
        let step = 0.25
        var elapsed = 0.0
        while elapsed < scenario.horizon {
            elapsed += step
            await clock.advance(to: start.addingTimeInterval(elapsed))
            for index in 0..<count where running[index] == nil && launches[index] <= elapsed {
                let app = client(index, sabotage: scenario.sabotage)
                let events = app.events
                let listener = Task {
                    for await event in events {
                        switch event {
                        case .sessionExpired, .signedOut: logouts.increment()
                        default: break
                        }
                    }
                }
                running[index] = (app, listener)
                nextRequest[index] = elapsed + 30
                Task { await Self.launch(app) }
            }
            for (index, due) in nextRequest where due <= elapsed {
                nextRequest[index] = due + 30
                if let app = running[index]?.client { Task { await Self.request(app, serverURL) } }
            }
            await Self.settle(limiter)
            let calls = limiter.callsByDevice
            if elapsed > scenario.resumeSpread + 30, (0..<count).allSatisfy({ calls[$0]?.contains(where: \.allowed) == true }) { break }
        }
        for (_, app) in running {
            await app.client.shutdown()
            await app.listener.value
        }
        return Self.report(limiter.callsByDevice, launches: launches, logouts: logouts.value, scenario: scenario)
    }

    static func launch(_ app: SessionClient) async {
        do {
            _ = try await app.restore()
        } catch {
            // A launch that could not refresh keeps its session; the backoff retries.
        }
    }

    static func request(_ app: SessionClient, _ serverURL: URL) async {
        do {
            _ = try await app.send(URLRequest(url: serverURL.appendingPathComponent("auth/v1/user")))
        } catch {
            // Answered from the backoff while the bucket is empty: what the app shows, not what is measured.
        }
    }

    /// Waits until no request of the herd is on the wire for a few rounds.
    static func settle(_ limiter: GoTrueTokenLimiter) async {
        var quietRounds = 0
        while quietRounds < 3 {
            for _ in 0..<16 { await Task.yield() }
            if limiter.requestsInFlight == 0 {
                quietRounds += 1
            } else {
                quietRounds = 0
                do { try await Task.sleep(nanoseconds: 100_000) } catch { return }
            }
        }
    }

    static func report(
        _ calls: [Int: [(at: TimeInterval, allowed: Bool)]], launches: [Double], logouts: Int, scenario: HerdScenario
    ) -> HerdReport {
        var intervals: [Int] = []
        var slowest = 0.0
        var recovered = 0
        var perSecond: [Int: Int] = [:]
        for (device, list) in calls {
            for (previous, next) in zip(list, list.dropFirst()) where !previous.allowed {
                intervals.append(Int(((next.at - previous.at) * 1_000).rounded()))
            }
            if let first = list.first(where: \.allowed) {
                recovered += 1
                slowest = max(slowest, first.at - launches[device])
            }
            for call in list where call.at > scenario.resumeSpread { perSecond[Int(call.at), default: 0] += 1 }
        }
        let all = calls.values.flatMap { $0 }
        return HerdReport(
            devices: scenario.devices, tokenCalls: all.count, limited: all.filter { !$0.allowed }.count,
            callsPerDeviceBound: scenario.callsPerDeviceBound, mostCallsByOneDevice: calls.values.map(\.count).max() ?? 0,
            recovered: recovered, slowestRecovery: slowest, logouts: logouts, retryIntervals: intervals.count,
            distinctRetryIntervals: Set(intervals).count, peakCallsPerSecondAfterLaunches: perSecond.values.max() ?? 0)
    }
}

private final class LogoutCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
