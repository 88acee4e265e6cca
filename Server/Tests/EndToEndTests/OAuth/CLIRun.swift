import Foundation

/// One run of a built command-line tool, its output captured in files that
/// the test reads while it runs.
///
/// Waiting here is on a real child process, so it polls in short steps with
/// an upper bound; no assertion depends on how long anything took.
final class CLIRun: @unchecked Sendable {
    // Unchecked: `process` is only touched through its own thread-safe API.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private let process = Process()
    private let stdoutURL: URL
    private let stderrURL: URL

    init(_ executable: String, _ arguments: [String], environment: [String: String], directory: URL) throws {
        let name = UUID().uuidString.prefix(8)
        stdoutURL = directory.appendingPathComponent("\(name).out")
        stderrURL = directory.appendingPathComponent("\(name).err")
        guard FileManager.default.createFile(atPath: stdoutURL.path, contents: nil),
            FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        else { throw Failure("cannot create output files in \(directory.path)") }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    var stdout: String { Self.read(stdoutURL) }
    var stderr: String { Self.read(stderrURL) }

    /// Waits for the first complete line of standard output.
    func waitForLine(containing needle: String = "") async throws -> String {
        for _ in 0..<1_500 {
            let text = stdout
            if let end = text.firstIndex(of: "\n"), needle.isEmpty || text.contains(needle) {
                return needle.isEmpty ? String(text[..<end]) : text
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure("no output line; stdout: \(stdout) stderr: \(stderr)")
    }

    /// Waits for the process to exit and returns its status.
    func waitForExit() async throws -> Int32 {
        for _ in 0..<1_500 where process.isRunning {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard !process.isRunning else { throw Failure("still running; stdout: \(stdout) stderr: \(stderr)") }
        return process.terminationStatus
    }

    /// SIGKILL (children may start with SIGTERM blocked) and reap.
    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func read(_ url: URL) -> String {
        FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
