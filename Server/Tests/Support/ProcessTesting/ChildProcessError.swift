/// A child process that could not be started, or did not do what a test waited for.
///
/// The description says what happened and ends with the tail of the child's
/// output, which is usually where the reason is. Equal when the kind of
/// failure is the same, whatever the details.
public struct ChildProcessError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case spawnFailed, timedOut, exitedEarly
    }

    private let code: Code
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// `posix_spawn` failed: the executable is missing or not built (`swift build --build-tests`).
    public static func spawnFailed(_ executable: String, errno: Int32) -> Self {
        Self(.spawnFailed, "could not start \(executable) (posix_spawn error \(errno)); is it built? Run `swift build --build-tests`.")
    }

    /// The child did not exit, or did not print what was awaited, within the limit; it was killed.
    public static func timedOut(_ what: String, limit: Duration, output: String) -> Self {
        Self(.timedOut, "\(what) within \(limit); the child was killed. Its output ends with:\n\(tail(output))")
    }

    /// The child exited before printing what was awaited.
    public static func exitedEarly(_ what: String, status: Int32, output: String) -> Self {
        Self(.exitedEarly, "\(what): the child exited first (status \(status)). Its output ends with:\n\(tail(output))")
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Enough to see a stack trace or the last log lines, not a whole log.
    private static func tail(_ output: String) -> Substring { output.suffix(2000) }
}
