import Foundation
import Logging

/// Keeps every log line in memory, so tests can assert what was (never) logged.
final class CapturedLogs: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var all: [String] { lock.withLock { lines } }

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    /// A logger at `level` (`info` unless told) writing here.
    func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "captured") { _ in Handler(sink: self) }
        logger.logLevel = level
        return logger
    }

    struct Handler: LogHandler {
        let sink: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            sink.append("\(event.level) \(event.message) \(merged)")
        }
    }
}
