import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A spawned `auth-server`, waited for until it listens.
///
/// The port comes from its start-up line, so `--port 0` lets the kernel
/// choose one and parallel tests never collide.
public final class AuthServerChild: Sendable {
    public let process: ChildProcess
    public let port: Int

    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Everything the server logged so far.
    public var log: String { process.output }

    /// Starts `auth-server` with `arguments` (`serve` and its options) and
    /// waits, at most `limit`, until it listens on 127.0.0.1.
    ///
    /// - Parameters:
    ///   - directory: the working directory (where the default database goes).
    ///   - environment: the child's whole environment; `nil` inherits the test runner's.
    ///   - output: where its log goes; by default a file of its own in `directory`.
    public init(
        arguments: [String], directory: String, environment: [String: String]? = nil,
        output: ChildProcess.Output? = nil, limit: Duration = .seconds(30)
    ) async throws {
        let process = try ChildProcess(
            executable: Binaries.authServer, arguments: arguments, environment: environment,
            workingDirectory: directory,
            output: output ?? .merged(directory + "/auth-server-\(UUID().uuidString.prefix(8)).log"))
        self.process = process
        port = try await process.waitFor("\"listening on\" line", limit: limit) {
            let log = process.output
            return log.range(of: "listening on 127.0.0.1:").flatMap { Int(log[$0.upperBound...].prefix { $0.isNumber }) }
        }
    }

    /// SIGTERM, then the exit status; SIGKILL and a thrown error after `limit`.
    public func terminate(limit: Duration = .seconds(20)) async throws -> Int32 {
        try await process.terminate(limit: limit).status
    }

    /// `auth_refreshes_total` from `/metrics`, by outcome (`rotated`,
    /// `replayedWithinGrace`, `refreshTokenAlreadyUsed`, …); outcomes not seen are absent.
    public func refreshOutcomes() async throws -> [String: Int] {
        let (data, _) = try await URLSession.shared.data(from: url.appendingPathComponent("metrics"))
        var counts: [String: Int] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix("auth_refreshes_total{") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Double(parts[1]), value > 0,
                let label = line.firstRange(of: "outcome=\"")
            else { continue }
            counts[String(line[label.upperBound...].prefix { $0 != "\"" }), default: 0] += Int(value)
        }
        return counts
    }

    /// SIGKILL, as a crash or the OOM killer would: no shutdown at all.
    public func kill() {
        process.killAndReap()
    }
}
