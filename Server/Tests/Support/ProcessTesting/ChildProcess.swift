import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process of a test (`sessionctl`, `auth-server`, `store-probe`), its output in files.
///
/// Started with `posix_spawn`, an empty signal mask and the default SIGTERM and
/// SIGINT dispositions (see `PosixSpawn`), so signal tests mean something.
/// Every child is reaped, whatever the test does: a wait that fails kills it,
/// ``killAndReap()`` is the cleanup path, and `deinit` kills one left running.
/// The waits poll, bounded by a limit (in `ChildProcess+Waiting.swift`).
public final class ChildProcess: @unchecked Sendable {
    // Unchecked: the only mutable state, `reapedStatus`, is read and written
    // under `lock`. Reaping and signalling also happen under it, so a signal
    // can never reach a pid that was reaped and given to another process.
    public let pid: pid_t
    public let executable: String
    public let outputFiles: Output
    private let lock = NSLock()
    private var reapedStatus: Int32?

    /// Starts `executable` (an absolute path) without waiting for it.
    ///
    /// - Parameters:
    ///   - environment: the child's whole environment; `nil` inherits the test runner's.
    ///   - workingDirectory: where the child starts; `nil` keeps the test's.
    ///   - standardInput: a file to read standard input from.
    ///   - output: where standard output and standard error go.
    /// - Throws: ``ChildProcessError/spawnFailed(_:errno:)`` when it cannot start.
    public init(
        executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        workingDirectory: String? = nil, standardInput: String = "/dev/null", output: Output
    ) throws {
        self.executable = executable
        self.outputFiles = output
        pid = try PosixSpawn.spawn(
            executable: executable, arguments: arguments, environment: environment,
            workingDirectory: workingDirectory, standardInput: standardInput, output: output)
    }

    deinit {
        // Never leave a child behind, whatever the test did.
        killAndReap()
    }

    /// The executable's name and the pid, for messages.
    public var name: String { "\(URL(fileURLWithPath: executable).lastPathComponent) (pid \(pid))" }

    /// Standard output so far (both streams, when merged).
    public var stdout: String { Self.read(outputFiles.stdoutPath) }

    /// Standard error so far; empty when merged into standard output.
    public var stderr: String { outputFiles.stderrPath.map(Self.read) ?? "" }

    /// Everything the child wrote so far: standard output, then standard error.
    public var output: String { stdout + stderr }

    /// The exit status once the child has exited (reaping it), else `nil`:
    /// the exit code, or 128 + the signal number when a signal ended it.
    public var exitStatus: Int32? { lock.withLock { reap(blocking: false) } }

    /// Sends `signal`, unless the child was already reaped.
    public func send(_ signal: Int32) {
        lock.withLock {
            guard reap(blocking: false) == nil else { return }
            _ = kill(pid, signal)
        }
    }

    /// SIGKILL and reap, unless it already exited; returns the exit status
    /// (`128 + SIGKILL` when the signal ended it).
    @discardableResult
    public func killAndReap() -> Int32 {
        lock.withLock {
            if let status = reap(blocking: false) { return status }
            _ = kill(pid, SIGKILL)
            // SIGKILL cannot be caught or blocked, so this blocking wait is short.
            return reap(blocking: true) ?? 128 + SIGKILL
        }
    }

    /// The exit status once the child has exited (reaping it), else `nil`. Call under `lock`.
    private func reap(blocking: Bool) -> Int32? {
        if let reapedStatus { return reapedStatus }
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        } while result == -1 && errno == EINTR
        guard result == pid else { return nil }
        // WIFEXITED / WEXITSTATUS / WTERMSIG spelled out: the macros are not imported.
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        reapedStatus = code
        return code
    }

    private static func read(_ path: String) -> String {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
