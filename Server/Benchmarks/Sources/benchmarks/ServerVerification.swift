import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import Logging
import ServiceLifecycle
import SessionCore
import SessionKit
import SessionServer

/// Item 3: `GET /v1/auth/me` saturated with wrk, beside the same handler with
/// no auth and the crypto library's own ES256 verify rate on the same core.
///
/// The server (this process) is pinned to CPU 0 and wrk to CPU 1 with
/// taskset, so "the same cores" means one core for the server, and the
/// verify ceiling is measured on one thread of that core.
enum ServerVerification {
    static func run(report: Report, quick: Bool) async throws {
        guard let wrk = Subprocess.which("wrk") else {
            await report.add("3", "server verification", "not run: wrk is not installed (Benchmarks/run installs it)")
            return
        }
        let seconds = quick ? 3 : 6
        var configuration = Bench.serverConfiguration(clock: SystemClock())
        // A cache smaller than the distinct-token set, so that run never hits it.
        configuration.verifiedTokenCacheCapacity = quick ? 256 : 1_000
        let capacity = configuration.verifiedTokenCacheCapacity
        let distinctCount = capacity * 2
        let server = try await Bench.makeServer(configuration)
        try await server.withRunningServer { baseURL in
            let transport = URLSessionTransport(session: Bench.makeURLSession())
            var tokens = try await Bench.signUp(baseURL, email: "wrk@example.com", transport: transport)
            guard let userID = tokens.user?.id else { throw ConfigurationError("The sign-up answered no user.") }
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
            try luaScript(tokenFile: tokenFile.path).write(to: script, atomically: true, encoding: .utf8)

            try await withBareRoute(store: server.store, userID: userID) { bareURL in
                let pinned = await pin(cpus: "0")
                let wrkCPU = pinned ? "1" : nil
                let unpinned = "0-\(Machine.cores - 1)"
                let me = baseURL.appendingPathComponent("v1/auth/me").absoluteString
                let ceiling = verifyRate(seconds: Double(seconds) / 2)
                let bare: WRKResult, same: WRKResult, many: WRKResult
                do {
                    bare = try await runWRK(wrk, cpu: wrkCPU, seconds: seconds, url: bareURL.appendingPathComponent("v1/auth/me").absoluteString, extra: [])
                    same = try await runWRK(wrk, cpu: wrkCPU, seconds: seconds, url: me, extra: ["-H", "Authorization: Bearer \(sameToken)"])
                    many = try await runWRK(wrk, cpu: wrkCPU, seconds: seconds, url: me, extra: ["-s", script.path])
                } catch {
                    if pinned { _ = await pin(cpus: unpinned) }
                    throw error
                }
                let ceilingAfter = verifyRate(seconds: Double(seconds) / 2)
                let verifyCeiling = (ceiling + ceilingAfter) / 2
                if pinned { _ = await pin(cpus: unpinned) }

                await report.add("3", "ES256 verifies/s, swift-crypto P256, 1 thread\(pinned ? " on the server's core" : "")", Format.rate(verifyCeiling))
                await report.add("3", "no-auth route req/s (same handler, bare Hummingbird)", Format.rate(bare.rate) + bare.note)
                await report.add("3", "GET /v1/auth/me req/s, one token repeated", Format.rate(same.rate) + same.note)
                await report.add("3", "GET /v1/auth/me req/s, \(distinctCount) distinct tokens cycled (cache \(capacity))", Format.rate(many.rate) + many.note)
                let distinctRatio = many.rate / verifyCeiling
                await report.add("3", "distinct tokens ÷ verify ceiling", Format.ratio(distinctRatio), goal: "≥ 0.8", met: distinctRatio >= 0.8 && many.errors == 0)
                let sameRatio = same.rate / bare.rate
                await report.add("3", "same token ÷ no-auth route", Format.ratio(sameRatio), goal: "≥ 0.5", met: sameRatio >= 0.5 && same.errors == 0)
            }
        }
    }

    struct WRKResult {
        let rate: Double
        let errors: Int
        var note: String { errors == 0 ? "" : " (\(errors) non-2xx/errors!)" }
    }

    static func runWRK(_ wrk: URL, cpu: String?, seconds: Int, url: String, extra: [String]) async throws -> WRKResult {
        let wrkArguments = ["-t1", "-c32", "-d\(seconds)s", "--latency"] + extra + [url]
        let (status, text): (Int32, String)
        if let cpu, let taskset = Subprocess.which("taskset") {
            (status, text) = try await Subprocess.output(executable: taskset, arguments: ["-c", cpu, wrk.path] + wrkArguments)
        } else {
            (status, text) = try await Subprocess.output(executable: wrk, arguments: wrkArguments)
        }
        guard status == 0 else { throw BenchError("wrk failed (\(status)): \(text)") }
        var rate = Double.nan
        var errors = 0
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("Requests/sec:") { rate = Double(trimmed.split(separator: " ").last ?? "") ?? .nan }
            if trimmed.hasPrefix("Non-2xx or 3xx responses:") { errors += Int(trimmed.split(separator: " ").last ?? "") ?? 0 }
            if trimmed.hasPrefix("Socket errors:") {
                errors += trimmed.split(separator: ",").compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
            }
        }
        return WRKResult(rate: rate, errors: errors)
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

    /// Pins every thread of this process to `cpus`; false when taskset is missing or refuses.
    static func pin(cpus: String) async -> Bool {
        guard Machine.cores > 1, let taskset = Subprocess.which("taskset") else { return false }
        let pid = String(ProcessInfo.processInfo.processIdentifier)
        let result = try? await Subprocess.output(executable: taskset, arguments: ["-a", "-p", "-c", cpus, pid])
        return result?.status == 0
    }

    static func luaScript(tokenFile: String) -> String {
        """
        local tokens = {}
        for line in io.lines("\(tokenFile)") do tokens[#tokens + 1] = line end
        local i = 0
        request = function()
          i = i + 1
          if i > #tokens then i = 1 end
          return wrk.format("GET", nil, { ["Authorization"] = "Bearer " .. tokens[i] })
        end
        """
    }

    /// The `/v1/auth/me` handler without authentication: the same store read
    /// and JSON envelope for a fixed user, on a bare Hummingbird router.
    static func withBareRoute(store: AuthStore, userID: String, _ body: @Sendable (URL) async throws -> Void) async throws {
        struct Envelope: Encodable {
            let success: Bool
            let data: SessionUser
        }
        let router = Router()
        router.get("v1/auth/me") { _, _ -> String in
            guard let user = try await store.user(id: userID) else { throw HTTPError(.notFound) }
            let data = try WireCoding.encoder().encode(Envelope(success: true, data: user.sessionUser))
            return String(decoding: data, as: UTF8.self)
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let logger = Bench.quietLogger("bench-bare")
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            guard let port = await ports.first(where: { _ in true }), let url = URL(string: "http://127.0.0.1:\(port)") else {
                throw BenchError("the bare route did not start")
            }
            do {
                try await body(url)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
