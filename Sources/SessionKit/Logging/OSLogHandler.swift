#if canImport(os)
import Foundation
import Logging
import os

/// A swift-log handler that writes to the unified logging system (`os.Logger`),
/// so SessionKit's log shows in Console.app and Xcode with the app's own.
///
/// ```swift
/// var configuration = SessionClientConfiguration(backend: .goTrue(url: authURL, apiKey: anonKey), store: KeychainSessionStore())
/// configuration.logger = Logger(label: "SessionKit") { OSLogHandler(label: $0, subsystem: "com.example.app") }
/// ```
///
/// Or for every swift-log logger of the app, once at launch:
/// `LoggingSystem.bootstrap { OSLogHandler(label: $0) }`.
///
/// Messages and metadata are logged as public: SessionKit never logs a
/// token beyond its first 6 characters, so nothing secret is in them.
/// Levels map as: trace and debug → debug, info → info, notice and
/// warning → default, error → error, critical → fault.
public struct OSLogHandler: LogHandler {
    public var logLevel: Logging.Logger.Level = .info
    public var metadata: Logging.Logger.Metadata = [:]
    public var metadataProvider: Logging.Logger.MetadataProvider?
    private let log: os.Logger

    /// - Parameters:
    ///   - label: the swift-log label, used as the category.
    ///   - subsystem: the subsystem (default: the app's bundle identifier).
    public init(label: String, subsystem: String? = nil) {
        self.log = os.Logger(subsystem: subsystem ?? Bundle.main.bundleIdentifier ?? "SessionKit", category: label)
    }

    public subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let details = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = "\(event.message)\(details)"
        log.log(level: Self.type(for: event.level), "\(text, privacy: .public)")
    }

    static func type(for level: Logging.Logger.Level) -> OSLogType {
        switch level {
        case .trace, .debug: .debug
        case .info: .info
        case .notice, .warning: .default
        case .error: .error
        case .critical: .fault
        }
    }
}
#endif
