import Foundation
import Logging

/// The text of every statement the store runs (`QueryLogDatabase` logs it at
/// `debug`, binds as placeholders), taken path by path.
final class CapturedSQL: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []

    /// Everything captured since the last call, and a fresh start.
    func take() -> [String] {
        lock.withLock {
            defer { statements = [] }
            return statements
        }
    }

    func logger() -> Logger {
        var logger = Logger(label: "captured-sql") { _ in Handler(sink: self) }
        logger.logLevel = .debug
        return logger
    }

    private func append(_ statement: String) { lock.withLock { statements.append(statement) } }

    struct Handler: LogHandler {
        let sink: CapturedSQL
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            if let sql = event.metadata?["sql"] { sink.append("\(sql)") }
        }
    }
}
