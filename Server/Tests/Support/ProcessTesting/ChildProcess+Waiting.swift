#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits on another process poll: it runs on real time, there is no clock to
/// advance. Every wait has a limit, so a hung child fails the test instead of
/// hanging the run, and a wait that gives up kills and reaps the child first,
/// so nothing is left running and the output in the error is final.
extension ChildProcess {
    /// Short: many tests run short commands one after another.
    static let pollInterval = Duration.milliseconds(5)

    /// Waits for the child to exit on its own.
    ///
    /// - Throws: ``ChildProcessError/timedOut(_:limit:output:)`` after `limit` (the child is killed).
    public func wait(limit: Duration = .seconds(30)) async throws -> ProcessResult {
        try await waitForExit("\(name) did not exit", limit: limit)
    }

    /// Sends SIGTERM and waits for the exit, as a service manager stops a service.
    ///
    /// - Throws: ``ChildProcessError/timedOut(_:limit:output:)`` when the child
    ///   ignores SIGTERM for `limit` (it is then killed with SIGKILL).
    public func terminate(limit: Duration = .seconds(20)) async throws -> ProcessResult {
        send(SIGTERM)
        return try await waitForExit("\(name) did not exit after SIGTERM", limit: limit)
    }

    /// Waits until the output contains `text`.
    ///
    /// - Throws: ``ChildProcessError/exitedEarly(_:status:output:)`` or
    ///   ``ChildProcessError/timedOut(_:limit:output:)`` (the child is killed).
    public func waitForOutput(_ text: String, limit: Duration = .seconds(30)) async throws {
        try await waitFor("\"\(text)\"", limit: limit) { output.contains(text) ? () : nil }
    }

    /// Polls `found` (which reads the output, a file the child writes…) until it returns a value.
    ///
    /// - Parameter what: what is awaited, for the error message ("listening port").
    /// - Throws: ``ChildProcessError/exitedEarly(_:status:output:)`` when the child
    ///   exits first, ``ChildProcessError/timedOut(_:limit:output:)`` after `limit`
    ///   (the child is killed), or what `found` throws (the child keeps running).
    public func waitFor<T>(_ what: String, limit: Duration = .seconds(30), _ found: () throws -> T?) async throws -> T {
        let deadline = ContinuousClock.now + limit
        while true {
            // Exit first, output second: what a child printed just before exiting still counts.
            let exited = exitStatus
            if let value = try found() { return value }
            if let exited { throw ChildProcessError.exitedEarly("no \(what) from \(name)", status: exited, output: output) }
            guard ContinuousClock.now < deadline else {
                killAndReap()
                throw ChildProcessError.timedOut("no \(what) from \(name)", limit: limit, output: output)
            }
            try await Task.sleep(for: Self.pollInterval)
        }
    }

    private func waitForExit(_ failure: String, limit: Duration) async throws -> ProcessResult {
        let deadline = ContinuousClock.now + limit
        while true {
            if let status = exitStatus { return ProcessResult(status: status, stdout: stdout, stderr: stderr) }
            guard ContinuousClock.now < deadline else {
                killAndReap()
                throw ChildProcessError.timedOut(failure, limit: limit, output: output)
            }
            try await Task.sleep(for: Self.pollInterval)
        }
    }
}
