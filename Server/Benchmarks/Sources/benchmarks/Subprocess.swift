import Dispatch
import Foundation

/// Child processes for the harness: storm workers, memory probes, wrk, taskset.
enum Subprocess {
    /// This benchmark binary, to re-run as a worker.
    static var selfExecutable: URL {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path)
    }

    /// Runs `executable`; its output goes to ours. Returns the exit status.
    static func run(executable: URL, arguments: [String]) async throws -> Int32 {
        try await output(executable: executable, arguments: arguments, capture: false).status
    }

    /// Runs `executable` and returns its exit status and standard output.
    static func output(executable: URL, arguments: [String], capture: Bool = true) async throws -> (status: Int32, text: String) {
        try await withCheckedThrowingContinuation { continuation in
            // A blocking wait belongs on a Dispatch thread, not the cooperative pool.
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = executable
                process.arguments = arguments
                let pipe = Pipe()
                if capture { process.standardOutput = pipe }
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let data = capture ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
        }
    }

    /// Finds a program on the usual paths.
    static func which(_ name: String) -> URL? {
        for directory in ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin"] {
            let path = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: path) { return URL(fileURLWithPath: path) }
        }
        return nil
    }
}
