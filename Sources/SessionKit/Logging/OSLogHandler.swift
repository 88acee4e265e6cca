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
/// Only what is known to hold no token is public (``OSLogLine``): the
/// messages of SessionKit's own loggers (labels `SessionKit…`) and the
/// metadata keys in `OSLogLine.publicMetadataKeys`. Everything else — an
/// app's own messages, error reasons, user ids, token fingerprints — is
/// logged with `privacy: .private`, which the unified log shows as
/// `<private>` unless a debugging profile is installed
/// (https://developer.apple.com/documentation/os/oslogprivacy). SessionKit
/// never logs any character of a token either way.
/// Levels map as: trace and debug → debug, info → info, notice and
/// warning → default, error → error, critical → fault.
public struct OSLogHandler: LogHandler {
    public var logLevel: Logging.Logger.Level = .info
    public var metadata: Logging.Logger.Metadata = [:]
    public var metadataProvider: Logging.Logger.MetadataProvider?
    private let log: os.Logger
    private let label: String

    /// - Parameters:
    ///   - label: the swift-log label, used as the category.
    ///   - subsystem: the subsystem (default: the app's bundle identifier).
    public init(label: String, subsystem: String? = nil) {
        self.label = label
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
        let line = OSLogLine(label: label, message: "\(event.message)", metadata: merged)
        // Two interpolations, each with its own privacy: `OSLogMessage` takes
        // the privacy per interpolated value, not per message
        // (https://developer.apple.com/documentation/os/logger).
        log.log(level: Self.type(for: event.level), "\(line.publicText, privacy: .public) \(line.privateText, privacy: .private)")
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
