import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionServer

/// Item 3: `GET /v1/auth/me` saturated with wrk, beside the framework's own
/// ceiling (a constant route), the same handler with no auth, and the crypto
/// library's own ES256 verify rate on the same core.
///
/// The server (this process) is pinned to CPU 0 and wrk to CPU 1 with
/// taskset, so "the same cores" means one core for the server, and the
/// verify ceiling is measured on one thread of that core. Every repetition
/// runs all five measurements, in reverse order every other time.
enum ServerVerification {
    /// One repetition's rates, all in requests (or verifications) per second.
    struct Rates {
        var ceiling: WRK.Result
        var noAuth: WRK.Result
        var same: WRK.Result
        var distinct: WRK.Result
        var verify: Double
    }

    static func run(report: Report, quick: Bool) async throws {
        guard let executable = Subprocess.which("wrk") else {
            await report.add("3", "server verification", "not run: wrk is not installed (Benchmarks/run installs it)")
            return
        }
        var configuration = Bench.serverConfiguration(clock: SystemClock())
        // A cache smaller than the distinct-token set, so that run never hits it.
        configuration.verifiedTokenCacheCapacity = quick ? 256 : 1_000
        let capacity = configuration.verifiedTokenCacheCapacity
        let distinctCount = capacity * 2
        let server = try await Bench.makeServer(configuration)
        try await server.withRunningServer { baseURL in
            let transport = URLSessionTransport(session: Bench.makeURLSession())
            var tokens = try await Bench.signUp(baseURL, email: "wrk@example.com", transport: transport)
            let userID = tokens.user!.id
            let sameToken = tokens.accessToken
            // Distinct valid tokens: each refresh issues a new access token.
            var distinct: [String] = []
            for _ in 0..<distinctCount {
                tokens = try await Bench.refresh(baseURL, token: tokens.refreshToken, transport: transport)
                distinct.append(tokens.accessToken)
            }
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bench-wrk-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { _ = try? FileManager.default.removeItem(at: scratch) }
            let tokenFile = scratch.appendingPathComponent("tokens.txt")
            try distinct.joined(separator: "\n").write(to: tokenFile, atomically: true, encoding: .utf8)
            let script = scratch.appendingPathComponent("distinct.lua")
            try WRK.distinctTokensScript(tokenFile: tokenFile.path, stateFile: scratch.appendingPathComponent("position").path)
                .write(to: script, atomically: true, encoding: .utf8)

            try await BareRoutes.run(store: server.store, userID: userID) { bareURL in
                let pinned = await WRK.pinSelf(cpus: "0")
                let wrk = WRK(executable: executable, cpu: pinned ? "1" : nil, seconds: quick ? 1 : 3)
                let me = baseURL.appendingPathComponent("v1/auth/me").absoluteString
                let arms: [() async throws -> Double] = [
                    { try await wrk.run(bareURL.appendingPathComponent("ceiling").absoluteString).rateOrError },
                    { try await wrk.run(bareURL.appendingPathComponent("v1/auth/me").absoluteString).rateOrError },
                    { try await wrk.run(me, extra: ["-H", "Authorization: Bearer \(sameToken)"]).rateOrError },
                    { try await wrk.run(me, extra: ["-s", script.path]).rateOrError },
                    { verifyRate(seconds: quick ? 0.5 : 1) },
                ]
                // SESSIONKIT_PROFILE_ARM=N (0 ceiling … 3 distinct) runs that arm alone for 20 s, under
                // `perf record -p`: the profiles in docs/BENCHMARKS.md, "Where the request's time goes".
                if let arm = ProcessInfo.processInfo.environment["SESSIONKIT_PROFILE_ARM"].flatMap(Int.init), (0...3).contains(arm) {
                    let long = WRK(executable: executable, cpu: wrk.cpu, seconds: 20)
                    let urls = [bareURL.appendingPathComponent("ceiling").absoluteString, bareURL.appendingPathComponent("v1/auth/me").absoluteString, me, me]
                    let extra = [[], [], ["-H", "Authorization: Bearer \(sameToken)"], ["-s", script.path]]
                    Console.line("   profiling arm \(arm): pid \(ProcessInfo.processInfo.processIdentifier), \(try await long.run(urls[arm], extra: extra[arm]).rate) req/s")
                    return
                }
                let results: [[Double]]
                do {
                    // Nine, not five: a quiet run's same-token ratios spread from 0.63 to 1.13
                    // over five (docs/BENCHMARKS.md, "Round 3 — the request path's profile").
                    results = try await Repeated.rounds(quick ? Repeated.repetitions : 9, arms)
                } catch {
                    if pinned { _ = await WRK.pinSelf(cpus: "0-\(Machine.cores - 1)") }
                    throw error
                }
                if pinned { _ = await WRK.pinSelf(cpus: "0-\(Machine.cores - 1)") }
                await record(results, pinned: pinned, distinctCount: distinctCount, capacity: capacity, report: report)
            }
        }
    }

    static func record(_ results: [[Double]], pinned: Bool, distinctCount: Int, capacity: Int, report: Report) async {
        let column = { (arm: Int) in Spread(results.map { $0[arm] }) }
        let (ceiling, noAuth, same, distinct, verify) = (column(0), column(1), column(2), column(3), column(4))
        await report.add("3", "ES256 verifies/s, swift-crypto P256, 1 thread\(pinned ? " on the server's core" : "")", verify, format: Format.rate)
        await report.add("3", "framework ceiling req/s (bare Hummingbird, constant body, no database)", ceiling, format: Format.rate)
        await report.add("3", "no-auth route req/s (same handler with its user read, bare Hummingbird)", noAuth, format: Format.rate)
        await report.add("3", "GET /v1/auth/me req/s, one token repeated", same, format: Format.rate)
        await report.add(
            "3", "GET /v1/auth/me req/s, distinct tokens cycled", distinct,
            detail: "\(distinctCount) tokens, cache \(capacity): every request verifies", format: Format.rate)
        // A NaN rate marks a run with errors: its ratio is NaN and the goal is missed.
        await report.add(
            "3", "no-auth route with user read ÷ framework ceiling",
            Spread(results.map { $0[1] / $0[0] }), goal: .atLeast(0.3))
        await report.add(
            "3", "distinct tokens ÷ min(ES256 verify ceiling, no-auth route)",
            Spread(results.map { $0[3] / min($0[4], $0[1]) }), goal: .atLeast(0.5),
            detail: "distinct tokens ÷ verify ceiling alone: \(Format.ratio(Stats.median(results.map { $0[3] / $0[4] })))")
        await report.add(
            "3", "same token ÷ no-auth route", Spread(results.map { $0[2] / $0[1] }), goal: .atLeast(0.9))
    }

    /// ES256 verifications per second on one thread: the ceiling for a request that must verify.
    static func verifyRate(seconds: Double) -> Double {
        let key = P256.Signing.PrivateKey()
        // A message the size of a real token's signing input.
        let message = Data(repeating: 0x61, count: 520)
        guard let signature = try? key.signature(for: message) else { return .nan }
        let publicKey = key.publicKey
        var count = 0
        let start = ContinuousClock.now
        let deadline = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        while ContinuousClock.now < deadline {
            for _ in 0..<100 where publicKey.isValidSignature(signature, for: message) { count += 1 }
        }
        return Double(count) / (ContinuousClock.now - start).seconds
    }
}

extension WRK.Result {
    /// The rate, or NaN when any request failed: a rate of errors is no rate.
    var rateOrError: Double {
        if errors > 0 { Console.line("   wrk: \(errors) non-2xx responses or socket errors") }
        return errors == 0 ? rate : .nan
    }
}
