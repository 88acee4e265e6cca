import Foundation
import Logging
import SessionKit

/// Everything a command needs, resolved once from the options and the
/// environment: the server, the profile's folder, how to print and log.
struct CLIContext: Sendable {
    static let defaultServer = "http://127.0.0.1:8080"

    let server: URL
    let apiKey: String?
    let profile: String
    let directory: URL
    let output: Output
    let logger: Logger

    /// How long the SDK client lives.
    enum Mode {
        /// One command, then exit: no launch round trip, no background timers;
        /// an expired token is still refreshed on demand (single flight across processes).
        case oneShot
        /// `watch`: validates at launch and refreshes proactively in the background.
        case watching
    }

    /// Resolves the options: a flag wins, then the environment, then what the
    /// profile remembers, then the default.
    ///
    /// - Throws: ``CLIError``: exit 2 for a bad URL or profile name, 4 for unreadable profile settings.
    init(options: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let profile = options.profile ?? environment["SESSIONKIT_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let directory = try ProfileDirectory(profile: profile, environment: environment).url
        let saved = try ProfileSettings.load(from: directory)
        let text =
            options.server ?? environment["SESSIONKIT_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? saved?.server
            ?? Self.defaultServer
        self.server = try Self.parseServer(text)
        // A remembered key belongs to the remembered server only.
        let savedKey = saved?.server == self.server.absoluteString ? saved?.apiKey : nil
        self.apiKey = options.apiKey ?? environment["SESSIONKIT_API_KEY"].flatMap { $0.isEmpty ? nil : $0 } ?? savedKey
        self.profile = profile
        self.directory = directory
        self.output = Output(json: options.json)
        var logger = Logger(label: "sessionctl") { StreamLogHandler.standardError(label: $0) }
        // Standard output belongs to the command's result (`token` is piped into
        // scripts); the SDK speaks on standard error, and only when it matters.
        logger.logLevel = options.verbose ? .debug : .warning
        self.logger = logger
    }

    static func parseServer(_ text: String) throws(CLIError) -> URL {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw CLIError.usage("The server must be an http(s) URL, like \(defaultServer); got \"\(text)\".")
        }
        return url
    }

    var store: FileSessionStore { FileSessionStore(directory: directory) }

    func makeClient(_ mode: Mode) -> SessionClient {
        let watching = mode == .watching
        return SessionClient(
            configuration: SessionClientConfiguration(
                backend: .goTrue(url: server, apiKey: apiKey),
                store: store,
                launchValidation: watching ? .background : .skip,
                automaticRefresh: watching,
                logger: logger))
    }

    /// Shows a spinner on a terminal while `operation` waits on the network.
    func spin<T: Sendable>(_ label: String, _ operation: () async throws -> T) async rethrows -> T {
        try await Spinner.run(label, enabled: !output.json, operation)
    }

    /// Remembers the server (and key) this profile signed in to.
    func rememberServer() {
        let settings = ProfileSettings(server: server.absoluteString, apiKey: apiKey)
        do {
            try settings.save(in: directory)
        } catch {
            // The session itself is saved; only the convenience of not repeating --server is lost.
            logger.warning("Could not remember the server for this profile", metadata: ["reason": "\(error)"])
        }
    }
}
