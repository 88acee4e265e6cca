import Foundation

extension ChildProcess {
    /// Where a child's standard output and standard error go.
    ///
    /// Always files, never pipes: a test reads them while the child runs and
    /// after it exits, and a pipe nobody drains fills up and blocks the child.
    public enum Output: Sendable {
        /// Both streams in one file (stderr is a copy of the stdout descriptor),
        /// in the order they were written: for servers and probes whose log is read as a whole.
        case merged(String)
        /// Each stream in its own file: for a command whose stdout is parsed.
        case separate(stdout: String, stderr: String)

        /// Separate files in `directory`, named after `executable` with a random
        /// suffix, so that many runs of one command share a log folder.
        public static func separate(in directory: String, for executable: String) -> Self {
            let name = URL(fileURLWithPath: executable).lastPathComponent + "-" + UUID().uuidString.prefix(8)
            return .separate(stdout: directory + "/\(name).out", stderr: directory + "/\(name).err")
        }

        /// The file standard output goes to (both streams, when merged).
        public var stdoutPath: String {
            switch self {
            case .merged(let path): path
            case .separate(let stdout, _): stdout
            }
        }

        /// The file standard error goes to; `nil` when merged into standard output.
        public var stderrPath: String? {
            switch self {
            case .merged: nil
            case .separate(_, let stderr): stderr
            }
        }
    }
}
