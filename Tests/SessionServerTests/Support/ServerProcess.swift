import Foundation
import ProcessTesting

/// An `auth-server` child process, for the tests that need a real process
/// (default SQLite start-up, SIGTERM, replicas across processes): the built
/// executable, started in a folder of its own, and the port it chose.
final class ServerProcess: Sendable {
    let process: ChildProcess
    let port: Int

    /// The built executable, next to the test bundle's build folder.
    static let executable: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/auth-server").path
    }()

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Starts `auth-server` with `arguments` in `directory` (where its default
    /// database goes) and waits, at most 30 s, until it listens.
    init(arguments: [String], directory: String) async throws {
        let process = try ChildProcess(
            executable: Self.executable, arguments: arguments, workingDirectory: directory,
            output: .merged(directory + "/server-\(UUID().uuidString.prefix(8)).log"))
        self.process = process
        // `--port 0` lets the kernel choose: the start-up line says which.
        port = try await process.waitFor("\"listening on\" line") {
            let log = process.output
            return log.range(of: "listening on 127.0.0.1:").flatMap { Int(log[$0.upperBound...].prefix { $0.isNumber }) }
        }
    }

    /// Everything the server logged so far.
    var log: String { process.output }

    /// Sends SIGTERM and returns the exit status; SIGKILL and a thrown error after 20 s.
    func terminate() async throws -> Int32 {
        try await process.terminate(limit: .seconds(20)).status
    }
}
