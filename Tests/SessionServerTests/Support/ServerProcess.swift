import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An `auth-server` child process, for the tests that need a real process
/// (default SQLite start-up, SIGTERM, replicas across processes).
///
/// Spawned with `posix_spawn` and an empty signal mask: Foundation's
/// `Process` starts children with SIGTERM blocked (PLATFORM.md), which would
/// make a graceful-shutdown test meaningless.
final class ServerProcess: @unchecked Sendable {
    let pid: pid_t
    let logPath: String
    private(set) var port: Int = 0

    /// The built executable, next to the test bundle's build folder.
    static let executable: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/auth-server").path
    }()

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Starts `auth-server` with `arguments` in `directory` and waits until it listens.
    init(arguments: [String], directory: String) async throws {
        logPath = directory + "/server-\(UUID().uuidString.prefix(8)).log"
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        // The shell only changes directory, then `exec` replaces it (keeping the
        // cleared signal mask), so the pid is the server's own.
        let quoted = ([Self.executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = "cd '\(directory)' && exec " + quoted.joined(separator: " ")
        let words: [String] = ["/bin/sh", "-c", script]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, environ)
        guard status == 0 else { throw UnexpectedResponse(description: "posix_spawn failed: \(status)") }
        pid = child
        port = try await waitForPort()
    }

    var log: String { (FileManager.default.contents(atPath: logPath)).map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// Reads the bound port from the start-up line, for at most 30 seconds.
    private func waitForPort() async throws -> Int {
        for _ in 0..<600 {
            if let range = log.range(of: "listening on 127.0.0.1:") {
                let digits = log[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits) { return port }
            }
            if exitStatus(blocking: false) != nil { break }
            // Waiting for another process to start: there is no clock to advance here.
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(pid, SIGKILL)
        _ = exitStatus(blocking: true)
        throw UnexpectedResponse(description: "auth-server did not start:\n\(log)")
    }

    /// Sends SIGTERM and waits (up to 20 s) for the exit status; SIGKILL after that.
    func terminate() async throws -> Int32 {
        kill(pid, SIGTERM)
        for _ in 0..<400 {
            if let status = exitStatus(blocking: false) { return status }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(pid, SIGKILL)
        _ = exitStatus(blocking: true)
        throw UnexpectedResponse(description: "auth-server ignored SIGTERM:\n\(log)")
    }

    private var reaped: Int32?

    /// The exit code once the child has exited (reaping it), else `nil`.
    private func exitStatus(blocking: Bool) -> Int32? {
        if let reaped { return reaped }
        var status: Int32 = 0
        let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        guard result == pid else { return nil }
        // WIFEXITED / WEXITSTATUS, spelled out: the macros are not imported.
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        reaped = code
        return code
    }
}
