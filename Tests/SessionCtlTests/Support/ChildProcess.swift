import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a finished child printed and how it exited.
struct ProcessResult: Sendable, CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// A child process of the test, spawned with `posix_spawn` and an empty
/// signal mask (Foundation's `Process` starts children with SIGTERM blocked,
/// PLATFORM.md), its output in files. Every child is reaped: `wait` kills it
/// with SIGKILL when it overstays, and `killAndReap()` is the cleanup path.
final class ChildProcess: @unchecked Sendable {
    // Unchecked: `reaped` is only touched by the one test task that owns the child.
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    private var reaped: Int32?

    /// - Parameters:
    ///   - environment: the child's whole environment (nothing is inherited).
    ///   - stdinPath: a file to read standard input from (default `/dev/null`).
    init(
        executable: String, arguments: [String], environment: [String: String], logDirectory: String,
        stdinPath: String = "/dev/null"
    ) throws {
        let name = URL(fileURLWithPath: executable).lastPathComponent + "-" + UUID().uuidString.prefix(8)
        stdoutPath = logDirectory + "/\(name).out"
        stderrPath = logDirectory + "/\(name).err"

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
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw HarnessError("posix_spawn \(executable) failed: \(status)") }
        pid = child
    }

    var stdout: String { Self.read(stdoutPath) }
    var stderr: String { Self.read(stderrPath) }

    private static func read(_ path: String) -> String {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Signals the child, unless it was already reaped (its pid may belong to another process by now).
    func send(_ signal: Int32) {
        guard exitStatus(blocking: false) == nil else { return }
        kill(pid, signal)
    }

    /// Waits for the exit (polling; a child is another process, there is no
    /// clock to advance). After `limit` it kills the child and throws: a hung
    /// command is a failure, never a hang of the test run.
    func wait(limit: Duration = .seconds(30)) async throws -> ProcessResult {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let status = exitStatus(blocking: false) { return ProcessResult(status: status, stdout: stdout, stderr: stderr) }
            try await Task.sleep(for: .milliseconds(20))
        }
        killAndReap()
        throw HarnessError("\(pid) did not exit within \(limit):\n\(stdout)\n\(stderr)")
    }

    /// SIGKILL and reap, unless it already exited. The cleanup path.
    func killAndReap() {
        guard exitStatus(blocking: false) == nil else { return }
        kill(pid, SIGKILL)
        _ = exitStatus(blocking: true)
    }

    /// The exit code once the child has exited (reaping it), else `nil`.
    private func exitStatus(blocking: Bool) -> Int32? {
        if let reaped { return reaped }
        var status: Int32 = 0
        let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        guard result == pid else { return nil }
        // WIFEXITED / WEXITSTATUS spelled out: the macros are not imported.
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        reaped = code
        return code
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
