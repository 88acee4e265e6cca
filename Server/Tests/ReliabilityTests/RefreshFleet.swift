import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionKit
import SessionKitTesting
import SessionSimulation

/// A few SessionKit clients on file stores against one live server, and the
/// logouts they report.
final class RefreshFleet: @unchecked Sendable {
    let baseURL: URL
    let clock: ManualClock
    let logger: Logger
    private(set) var clients: [SessionClient] = []
    private var listeners: [LogoutCounter] = []
    private var directories: [URL] = []

    private let middlewares: [any TransportMiddleware]

    /// - Parameter serverClock: the in-process server's clock, whose time the
    ///   clients read from each answer's `Date`; `nil` for a server in another
    ///   process, whose real `Date` header goes through untouched.
    init(baseURL: URL, clock: ManualClock, serverClock: ManualClock?, logger: Logger) {
        self.baseURL = baseURL
        self.clock = clock
        self.logger = logger
        middlewares = serverClock.map { [ServerDateMiddleware(serverClock: $0)] } ?? []
    }

    func signUp(count: Int) async throws {
        for index in 0..<count {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("restart-\(UUID().uuidString)", isDirectory: true)
            let client = SessionClient(
                configuration: SessionClientConfiguration(
                    backend: .goTrue(url: baseURL, apiKey: "anon-key"), store: FileSessionStore(directory: directory),
                    clock: clock,
                    transport: MiddlewareTransport(
                        base: URLSessionTransport(), middlewares: middlewares),
                    launchValidation: .skip, jitter: .fixed(0), automaticRefresh: false, logger: logger))
            listeners.append(LogoutCounter(client))
            _ = try await client.restore()
            _ = try await client.signUp(email: "restart\(index)-\(UUID().uuidString.prefix(8))@sim.test", password: "sim-password-9")
            clients.append(client)
            directories.append(directory)
        }
    }

    /// What a burst of refreshes came to.
    struct Tally: Sendable, CustomStringConvertible {
        var succeeded = 0
        /// Failed and the session was kept (the database was down): expected.
        var transient = 0
        /// Transient failures by kind (`server` is the 503, `network` a dropped or timed-out request).
        var transientKinds: [String: Int] = [:]
        /// Failed any other way: a defect.
        var other: [String] = []

        var description: String {
            "\(succeeded) succeeded, \(transient) failed transiently "
                + "\(transientKinds.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }), "
                + "\(other.count) failed otherwise"
        }

        mutating func record(_ outcome: Result<Void, SessionError>) {
            switch outcome {
            case .success: succeeded += 1
            case .failure(let error) where error.isTransient:
                transient += 1
                transientKinds[error.kindName, default: 0] += 1
            case .failure(let error): other.append(String(describing: error))
            }
        }

        static func + (lhs: Tally, rhs: Tally) -> Tally {
            Tally(
                succeeded: lhs.succeeded + rhs.succeeded, transient: lhs.transient + rhs.transient,
                transientKinds: lhs.transientKinds.merging(rhs.transientKinds, uniquingKeysWith: +),
                other: lhs.other + rhs.other)
        }
    }

    /// Each client refreshes `times` times; transient failures (the database is down) are expected.
    func refreshRepeatedly(times: Int) async -> Tally {
        await withTaskGroup(of: Tally.self) { group in
            for client in clients {
                group.addTask {
                    var tally = Tally()
                    for _ in 0..<times { tally.record(await Self.refresh(client)) }
                    return tally
                }
            }
            return await group.reduce(Tally(), +)
        }
    }

    /// Starts and stops a load, and counts its successes as they happen.
    actor LoadGate {
        private(set) var successes = 0
        private(set) var failures = 0
        private(set) var isStopped = false

        func stop() { isStopped = true }
        func succeeded() { successes += 1 }
        func failed() { failures += 1 }

        /// Returns once at least `count` refreshes have failed in all, or after
        /// `limit` (a pool that waits for its database may absorb a short outage).
        func waitForFailures(_ count: Int, limit: Duration) async {
            let deadline = ContinuousClock.now + limit
            while failures < count, ContinuousClock.now < deadline {
                do { try await Task.sleep(nanoseconds: 5_000_000) } catch { return }
            }
        }

        /// Returns once at least `count` refreshes have succeeded in all.
        func waitForSuccesses(_ count: Int) async {
            while successes < count {
                // Waiting on other tasks' network round trips: no clock to advance.
                do { try await Task.sleep(nanoseconds: 5_000_000) } catch { return }
            }
        }
    }

    /// Every client refreshes in a loop until `gate` is stopped; failures
    /// (the server is down) are tallied and the loop goes on.
    func refreshUntilStopped(_ gate: LoadGate) async -> Tally {
        await withTaskGroup(of: Tally.self) { group in
            for client in clients {
                group.addTask {
                    var tally = Tally()
                    while await !gate.isStopped {
                        let outcome = await Self.refresh(client)
                        tally.record(outcome)
                        if case .success = outcome {
                            await gate.succeeded()
                        } else {
                            await gate.failed()
                            // Connection refused answers at once: do not spin while the server is down.
                            do { try await Task.sleep(nanoseconds: 10_000_000) } catch { break }
                        }
                    }
                    return tally
                }
            }
            return await group.reduce(Tally(), +)
        }
    }

    private static func refresh(_ client: SessionClient) async -> Result<Void, SessionError> {
        do {
            _ = try await client.refresh()
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Refreshes every client until it succeeds (the pool reconnects), at most 50 tries each.
    func refreshUntilSuccess() async throws {
        for client in clients {
            var lastError: SessionError?
            for _ in 0..<50 {
                do {
                    _ = try await client.refresh()
                    lastError = nil
                    break
                } catch {
                    lastError = error
                    if !error.isTransient { break }
                    try await Task.sleep(nanoseconds: 50_000_000)
                }
            }
            if let lastError { throw lastError }
        }
    }

    /// Refreshes every client until it succeeds or its session has ended (at
    /// most 50 tries each): after it, every lost session has been noticed.
    func refreshUntilSettled() async throws {
        for client in clients {
            for _ in 0..<50 {
                do {
                    _ = try await client.refresh()
                    break
                } catch where error.isTransient {
                    try await Task.sleep(nanoseconds: 50_000_000)
                } catch {
                    break
                }
            }
        }
    }

    func sessionIDs() async throws -> [String] {
        var ids: [String] = []
        for client in clients { if let id = await client.currentSession?.sessionID { ids.append(id) } }
        return ids
    }

    func shutdown() async {
        for client in clients { await client.shutdown() }
        for directory in directories {
            do { try FileManager.default.removeItem(at: directory) } catch {}
        }
    }

    /// Logouts reported by all clients (call after `shutdown`, which ends the streams).
    func logouts() async -> Int {
        var total = 0
        for listener in listeners { total += await listener.total() }
        return total
    }
}

extension SessionError {
    /// `server` for `SessionError.server: …`: the kind without the message.
    var kindName: String {
        let text = String(describing: self)
        let head = text.prefix { $0 != ":" }
        return String(head.split(separator: ".").last ?? head[...])
    }
}
