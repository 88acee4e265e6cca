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
            let result = try await Repeated.ratio(a: signInRate, b: bcryptRate)
            await report.add("5", "sign-ins/s, \(count) concurrent, bcrypt cost \(cost)", result.a, format: Format.rate)
            await report.add("5", "bcrypt verifies/s, cost \(cost), all cores", result.b, format: Format.rate)
            await report.add("5", "sign-ins ÷ bcrypt", result.ratio, goal: .atLeast(0.9))
        }
    }
}
