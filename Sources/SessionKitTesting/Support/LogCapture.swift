import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging

/// Keeps every log line in memory, so tests can assert on logs (no token in any of them, say).
///
/// ```swift
/// let capture = LogCapture()
/// let logger = capture.logger()
/// // … run the client with `logger` …
/// #expect(capture.lines.allSatisfy { !$0.contains(token) })
/// ```
public final class LogCapture: @unchecked Sendable {
    /// One captured line.
    public struct Entry: Sendable {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]
        /// Message and metadata as one string.
        public var line: String {
            ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    private let lock = NSLock()
    private var stored: [Entry] = []

    public init() {}

    /// A logger writing here, at `level` and above.
    public func logger(label: String = "SessionKit.test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    public var entries: [Entry] { lock.withLock { stored } }
    public var lines: [String] { entries.map(\.line) }

    fileprivate func append(_ entry: Entry) { lock.withLock { stored.append(entry) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = metadata
            for (key, value) in event.metadata ?? [:] { merged[key] = value }
            capture.append(
                Entry(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
        }
    }
}
