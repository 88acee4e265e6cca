/// What a finished child printed and how it exited.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit code, or 128 + the signal number when a signal ended it (as a shell reports it).
    public let status: Int32
    /// Standard output; with ``ChildProcess/Output/merged(_:)`` standard error is in here too.
    public let stdout: String
    /// Standard error; empty with ``ChildProcess/Output/merged(_:)``.
    public let stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    public var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}
