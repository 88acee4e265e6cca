import Foundation
import ProcessTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shared `ChildProcess` keeps the promises the process tests rely on:
/// signals reach the child, waits give up and reap, nothing is left running.
/// A class, so that `deinit` removes each test's folder.
@Suite(.serialized)
final class ChildProcessTests {
    let folder: URL

    init() throws {
        folder = try Binaries.temporaryFolder("child")
    }

    deinit {
        do {
            try FileManager.default.removeItem(at: folder)
        } catch {
            // A leftover folder of small logs in the temporary directory harms no later test.
        }
    }

    func log(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Foundation's `Process` would hand the blocked SIGTERM down; the child must start with an empty mask.
    @Test func terminateStopsAChildSpawnedWhileSIGTERMIsBlocked() async throws {
        let child = try spawnWithSIGTERMBlocked()
        let result = try await child.terminate(limit: .seconds(10))
        #expect(result.status == 128 + SIGTERM, "\(result)")
    }

    @Test func waitGivesUpAfterItsLimitAndReapsTheChild() async throws {
        let child = try ChildProcess(executable: "/bin/sleep", arguments: ["30"], output: .merged(log("sleep.log")))
        let error = await #expect(throws: ChildProcessError.self) { try await child.wait(limit: .milliseconds(100)) }
        #expect(error == .timedOut("", limit: .zero, output: ""), "\(String(describing: error))")
        #expect(child.exitStatus == 128 + SIGKILL)
    }

    @Test func waitForOutputFailsAtOnceWhenTheChildExitsFirst() async throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "echo started; exit 3"], output: .merged(log("early.log")))
        let error = await #expect(throws: ChildProcessError.self) { try await child.waitForOutput("ready", limit: .seconds(30)) }
        #expect(error == .exitedEarly("", status: 0, output: ""), "\(String(describing: error))")
        #expect(error?.description.contains("status 3") == true, "\(String(describing: error))")
        #expect(error?.description.hasSuffix("started\n") == true, "the output tail is in the error")
    }

    @Test func deinitKillsAndReapsAChildLeftRunning() throws {
        let pid = try startAndDrop()
        // Neither running nor a zombie: the pid no longer exists.
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test func separateOutputWithExplicitEnvironmentAndWorkingDirectory() async throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", #"echo "$GREETING"; echo oops >&2; pwd"#],
            environment: ["GREETING": "hello"], workingDirectory: folder.path,
            output: .separate(in: folder.path, for: "/bin/sh"))
        let result = try await child.wait()
        #expect(result.status == 0)
        #expect(result.stdout == "hello\n\(folder.resolvingSymlinksInPath().path)\n", "\(result)")
        #expect(result.stderr == "oops\n", "\(result)")
    }

    @Test func mergedOutputKeepsTheOrderOfBothStreams() async throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "echo one; echo two >&2; echo three"], output: .merged(log("merged.log")))
        let result = try await child.wait()
        #expect(result.stdout == "one\ntwo\nthree\n", "\(result)")
        #expect(result.stderr.isEmpty)
    }

    /// Regression: a child inherited the runner's descriptors (NIO's sockets have
    /// no close-on-exec), so a connection the test closed stayed open in the
    /// child, and its peer waited 30 s for an answer (found by ServerCrashTests).
    @Test func aChildInheritsNoDescriptorButItsStandardStreams() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)  // without O_CLOEXEC, as those sockets
        let child = try ChildProcess(executable: "/bin/sleep", arguments: ["30"], output: .merged(log("fds.log")))
        close(ends[1])
        // With no writer left anywhere the read end is at end of file; if the
        // child held the write end, a non-blocking read would find no data instead.
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        var byte: UInt8 = 0
        let count = read(ends[0], &byte, 1)
        let readError = errno
        close(ends[0])
        child.killAndReap()
        #expect(count == 0, "the child still holds the pipe's write end (read: \(count), errno \(readError))")
    }

    /// Spawns `sleep` from a thread that blocks SIGTERM, as a runner started by `Process` would.
    private func spawnWithSIGTERMBlocked() throws -> ChildProcess {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try ChildProcess(executable: "/bin/sleep", arguments: ["30"], output: .merged(log("term.log")))
    }

    /// Starts `sleep` and lets the only reference go.
    private func startAndDrop() throws -> pid_t {
        try ChildProcess(executable: "/bin/sleep", arguments: ["30"], output: .merged(log("dropped.log"))).pid
    }
}
