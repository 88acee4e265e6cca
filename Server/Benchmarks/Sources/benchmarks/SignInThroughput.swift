import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HummingbirdBcrypt
import SessionCore
import SessionKit
import SessionServer

/// Item 5: password sign-ins per second against bcrypt verifications per
/// second at the same cost, interleaved over repetitions: only bcrypt should cost.
///
/// The goal's sign-ins are driven by wrk, a process of its own that sleeps in
/// `epoll_wait` between answers. Driven by URLSession in this process, as
/// before, the client's own cost landed on the same two cores as bcrypt: on
/// Linux, FoundationNetworking watches libcurl's sockets through Dispatch
/// sources, and its manager thread took a quarter of the run's CPU samples
/// (docs/BENCHMARKS.md, "Sign-in again"). That row stays, labelled, beside it.
enum SignInThroughput {
    static func run(report: Report, quick: Bool) async throws {
        let cost: UInt8 = 10
        let count = quick ? 16 : 96
        let password = "correct-horse-battery"
        let server = try await Bench.makeServer(Bench.serverConfiguration(clock: SystemClock(), bcryptCost: cost))
        try await server.withRunningServer { baseURL in
            let transport = URLSessionTransport(session: Bench.makeURLSession())
            _ = try await Bench.signUp(baseURL, email: "bcrypt@example.com", password: password, transport: transport)
            let hash = Bcrypt.hash(password, cost: cost)
            var components = URLComponents(url: baseURL.appendingPathComponent("auth/v1/token"), resolvingAgainstBaseURL: false)!
            components.queryItems = [URLQueryItem(name: "grant_type", value: "password")]
            let request = Bench.request(
                "POST", components.url!, json: #"{"email":"bcrypt@example.com","password":"\#(password)"}"#)

            func bcryptRate() async -> Double {
                let seconds = await Stopwatch.seconds {
                    await withCheckedContinuation { continuation in
                        DispatchQueue.global().async {
                            DispatchQueue.concurrentPerform(iterations: count) { _ in
                                precondition(Bcrypt.verify(password, hash: hash))
                            }
                            continuation.resume()
                        }
                    }
                }
                return Double(count) / seconds
            }
            func signInRate() async throws -> Double {
                let seconds = try await Stopwatch.seconds {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for _ in 0..<count {
                            group.addTask {
                                let (_, response) = try await transport.send(request)
                                guard response.statusCode == 200 else { throw BenchError("sign-in answered \(response.statusCode)") }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                return Double(count) / seconds
            }
            _ = try await signInRate()
            guard let executable = Subprocess.which("wrk") else {
                let result = try await Repeated.ratio(a: signInRate, b: bcryptRate)
                await report.add("5", "sign-ins/s, \(count) concurrent, URLSession in this process", result.a, format: Format.rate)
                await report.add("5", "bcrypt verifies/s, cost \(cost), all cores", result.b, format: Format.rate)
                await report.add("5", "sign-ins ÷ bcrypt", "not run: wrk is not installed (Benchmarks/run installs it)")
                return
            }
            // Long enough that the first answer's wait (one hash) and the unfinished
            // ones at the end (at most one a core) are a small part of the count.
            let wrk = WRK(executable: executable, cpu: nil, seconds: quick ? 3 : 10, connections: count)
            let script = FileManager.default.temporaryDirectory.appendingPathComponent("bench-sign-in-\(UUID().uuidString).lua")
            try Self.wrkScript(email: "bcrypt@example.com", password: password).write(to: script, atomically: true, encoding: .utf8)
            defer { _ = try? FileManager.default.removeItem(at: script) }
            let arms: [() async throws -> Double] = [
                {
                    let rate = try await wrk.run(components.url!.absoluteString, extra: ["--timeout", "60s", "-s", script.path]).rateOrError
                    // wrk leaves up to `count` sign-ins queued in the server when it stops, and they
                    // would be hashed during the next arm. The hashes start in arrival order, so
                    // one more sign-in, untimed, answers only once they have run.
                    let (_, response) = try await transport.send(request)
                    guard response.statusCode == 200 else { throw BenchError("sign-in answered \(response.statusCode)") }
                    return rate
                },
                { try await signInRate() },
                { await bcryptRate() },
            ]
            let results = try await Repeated.rounds(Repeated.repetitions, arms)
            let column = { (arm: Int) in Spread(results.map { $0[arm] }) }
            await report.add("5", "sign-ins/s, \(count) connections, wrk", column(0), format: Format.rate)
            await report.add("5", "sign-ins/s, \(count) concurrent, URLSession in this process", column(1), format: Format.rate)
            await report.add("5", "bcrypt verifies/s, cost \(cost), all cores", column(2), format: Format.rate)
            await report.add("5", "sign-ins ÷ bcrypt", Spread(results.map { $0[0] / $0[2] }), goal: .atLeast(0.9))
            await report.add(
                "5", "sign-ins driven by URLSession in this process ÷ bcrypt", Spread(results.map { $0[1] / $0[2] }),
                detail: "the client's CPU on the server's cores")
        }
    }

    /// A POST of the password grant's body, for wrk.
    static func wrkScript(email: String, password: String) -> String {
        """
        wrk.method = "POST"
        wrk.body = '{"email":"\(email)","password":"\(password)"}'
        wrk.headers["Content-Type"] = "application/json"
        """
    }
}
