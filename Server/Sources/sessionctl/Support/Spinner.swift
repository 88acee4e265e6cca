import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress line on standard error while a network call takes longer than
/// half a second — only when standard error is a terminal, so scripts and
/// `--json` output never see it.
enum Spinner {
    /// Runs `operation`, showing `label` with a spinner if it is slow.
    static func run<T: Sendable>(_ label: String, enabled: Bool, _ operation: () async throws -> T) async rethrows -> T {
        guard enabled, isatty(STDERR_FILENO) == 1 else { return try await operation() }
        // Cosmetic only: this timer decides nothing about sessions.
        let spinner = Task {
            let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
            do {
                try await ContinuousClock().sleep(for: .milliseconds(500))
                var index = 0
                while !Task.isCancelled {
                    FileHandle.standardError.write(Data("\r\(frames[index % frames.count]) \(label)…".utf8))
                    index += 1
                    try await ContinuousClock().sleep(for: .milliseconds(100))
                }
            } catch {
                // Cancelled: the operation finished; fall through to clear the line.
            }
        }
        defer {
            spinner.cancel()
            FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        }
        return try await operation()
    }
}
