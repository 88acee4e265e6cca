import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process of the tests (`store-probe`, `auth-server`), its output in a file.
///
/// Spawned with `posix_spawn` and an empty signal mask (Foundation's
/// `Process` starts children with SIGTERM blocked, PLATFORM.md). Stopped
/// with SIGKILL and always reaped, so no test leaves a process behind.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    let outputPath: String
    private var exitCode: Int32?

    /// Starts `executable` with `arguments`; stdout and stderr go to `outputPath`.
    init(_ executable: String, _ arguments: [String], outputPath: String) throws {
        self.outputPath = outputPath
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard status == 0 else { throw ChildProcessError(description: "posix_spawn \(executable) failed: \(status)") }
        pid = child
    }

    /// Everything the child wrote so far.
    var output: String {
        FileManager.default.contents(atPath: outputPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Waits until the output contains `text` (at most `seconds`), polling the file.
    func waitForOutput(_ text: String, seconds: Double = 30) async throws {
        // Another process's progress: there is no clock to advance, only a file to poll.
        for _ in 0..<Int(seconds * 500) {
            if output.contains(text) { return }
            if status(blocking: false) != nil { break }
            try await Task.sleep(for: .milliseconds(2))
        }
        kill()
        throw ChildProcessError(description: "no \"\(text)\" from \(pid):\n\(output.suffix(2000))")
    }

    /// Waits for the child to exit on its own (at most `seconds`), then returns its exit code.
    func waitForExit(seconds: Double = 60) async throws -> Int32 {
        for _ in 0..<Int(seconds * 100) {
            if let code = status(blocking: false) { return code }
            try await Task.sleep(for: .milliseconds(10))
        }
        kill()
        throw ChildProcessError(description: "process \(pid) did not exit:\n\(output.suffix(2000))")
    }

    /// SIGKILL and reap; returns the exit code (137 when the signal killed it).
    @discardableResult
    func kill() -> Int32 {
        if let exitCode { return exitCode }
        sigkill(pid)
        return status(blocking: true) ?? -1
    }

    /// The exit code once the child has exited (reaping it), else `nil`.
    private func status(blocking: Bool) -> Int32? {
        if let exitCode { return exitCode }
        var status: Int32 = 0
        let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        guard result == pid else { return nil }
        // WIFEXITED / WEXITSTATUS, spelled out: the macros are not imported.
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitCode = code
        return code
    }

    deinit {
        // Never leave a child behind, whatever the test did.
        if exitCode == nil { kill() }
    }
}

/// Outside the class, where `kill` is the C function, not the method.
private func sigkill(_ pid: pid_t) {
    _ = kill(pid, SIGKILL)
}

struct ChildProcessError: Error, CustomStringConvertible {
    let description: String
}
