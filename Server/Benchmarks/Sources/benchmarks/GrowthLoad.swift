import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SQLKit
import SessionCore
import SessionKit
import SessionServer

/// One server of item 8 running over its populated database.
struct GrowthTarget: Sendable {
    let users: Int
    let server: AuthServer
    let baseURL: URL
}

/// One operation's timings in one run: latencies (seconds) and operations a second.
struct GrowthSample: Sendable {
    var latencies: [Double]
    var rate: Double
    var p50: Double { Stats.percentile(latencies, 0.5) }
    var p99: Double { Stats.percentile(latencies, 0.99) }
}

/// The load item 8 puts on a server: `workers` loops over HTTP for `seconds`.
enum GrowthLoad {
    static let workers = 8

    /// A timed run of `step` on every worker; each worker's state feeds its next step.
    static func run<State: Sendable>(
        seconds: Double, start: [State], step: @escaping @Sendable (State) async throws -> State
    ) async throws -> (GrowthSample, [State]) {
        let began = ContinuousClock.now
        let deadline = began.advanced(by: .milliseconds(Int(seconds * 1000)))
        let results = try await withThrowingTaskGroup(of: ([Double], State).self) { group in
            for first in start {
                group.addTask {
                    var state = first
                    var mine: [Double] = []
                    while ContinuousClock.now < deadline {
                        let t0 = ContinuousClock.now
                        state = try await step(state)
                        mine.append((ContinuousClock.now - t0).seconds)
                    }
                    return (mine, state)
                }
            }
            return try await group.reduce(into: [([Double], State)]()) { $0.append($1) }
        }
        let latencies = results.flatMap(\.0)
        return (GrowthSample(latencies: latencies, rate: Double(latencies.count) / (ContinuousClock.now - began).seconds), results.map(\.1))
    }

    static func refresh(_ target: GrowthTarget, token: String, transport: any HTTPTransport) async throws -> TokenResponse {
        try await Bench.refresh(target.baseURL, token: token, transport: transport)
    }

    static func me(_ target: GrowthTarget, accessToken: String, transport: any HTTPTransport) async throws {
        let (_, response) = try await transport.send(
            Bench.request("GET", target.baseURL.appendingPathComponent("v1/auth/me"), bearer: accessToken))
        guard response.statusCode == 200 else { throw BenchError("/v1/auth/me answered \(response.statusCode)") }
    }

    static func signIn(_ target: GrowthTarget, user: Int, transport: any HTTPTransport) async throws {
        var components = URLComponents(url: target.baseURL.appendingPathComponent("auth/v1/token"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "grant_type", value: "password")]
        let body = #"{"email":"\#(GrowthPopulation.email(user))","password":"\#(GrowthPopulation.password)"}"#
        let (_, response) = try await transport.send(Bench.request("POST", components.url!, json: body))
        guard response.statusCode == 200 else { throw BenchError("sign-in answered \(response.statusCode)") }
    }

    /// Fresh sessions of random users in the populated table: the chains the refresh workers rotate.
    static func chains(_ target: GrowthTarget) async throws -> [String] {
        let configuration = target.server.configuration
        var tokens: [String] = []
        for _ in 0..<workers {
            let user = GrowthPopulation.userID(Int.random(in: 1...target.users))
            tokens.append(
                try await target.server.store.createSession(
                    userID: user, userAgent: "growth-bench", ip: "127.0.0.1", now: Date(),
                    refreshTokenTTL: configuration.refreshTokenTTL, absoluteTTL: configuration.sessionAbsoluteTTL
                ).refreshToken)
        }
        return tokens
    }

    /// How long the workers refresh before the prune starts: the refreshes
    /// that ended in this window (after the first 0.2 s) are the baseline the
    /// prune's added delay is measured against.
    static let beforePrune = Duration.seconds(2)

    /// The prune over `dead` sessions that ended two days ago (and their
    /// tokens) while the workers refresh: the refreshes that overlapped it,
    /// and those that ran wholly before it, on the same workers.
    static func pruneUnderLoad(
        _ target: GrowthTarget, dead: Int, round: Int, transport: any HTTPTransport
    ) async throws -> (overlapping: [Double], before: [Double], pruneSeconds: Double, deleted: Int) {
        let store = target.server.store
        let now = Date().timeIntervalSince1970
        var first = 1
        while first <= dead {
            let count = min(50_000, dead - first + 1)
            let statements = GrowthPopulation.deadRows(store.flavor, count: count, round: round * 1000 + first / 50_000, now: now)
            try await store.withTransaction { db in for statement in statements { try await db.raw("\(unsafeRaw: statement)").run() } }
            first += count
        }
        let start = try await chains(target)
        let clock = ContinuousClock()
        let origin = clock.now
        let stop = Flag()
        async let refreshes: [(Double, Double)] = withThrowingTaskGroup(of: [(Double, Double)].self) { group in
            for first in start {
                group.addTask {
                    var token = first
                    var mine: [(Double, Double)] = []
                    while !stop.isSet {
                        let t0 = clock.now
                        token = try await refresh(target, token: token, transport: transport).refreshToken
                        mine.append(((t0 - origin).seconds, (clock.now - t0).seconds))
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        try await Task.sleep(for: beforePrune)
        let pruneStart = (clock.now - origin).seconds
        let deleted = try await store.pruneExpired(now: Date())
        let pruneEnd = (clock.now - origin).seconds
        try await Task.sleep(for: .milliseconds(300))
        stop.set()
        let timed = try await refreshes
        let overlapping = timed.filter { $0.0 < pruneEnd && $0.0 + $0.1 > pruneStart }.map(\.1)
        let before = timed.filter { $0.0 > 0.2 && $0.0 + $0.1 <= pruneStart }.map(\.1)
        return (overlapping, before, pruneEnd - pruneStart, deleted)
    }
}

/// A stop signal the workers poll.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
