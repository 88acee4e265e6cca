import Foundation

/// Runs a command line tool to completion without blocking a thread of the test pool.
enum TestProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Returns standard output; throws with standard error when the tool exits non-zero.
    @discardableResult
    static func run(_ arguments: [String]) async throws -> String {
        let directory = try MailTestPaths.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("stdout")
        let errors = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        // Files rather than pipes: a full pipe would stall the tool with nobody reading.
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        guard status == 0 else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw Failure(description: "\(arguments.joined(separator: " ")) exited \(status): \(message)")
        }
        return try String(contentsOf: output, encoding: .utf8)
    }
}
