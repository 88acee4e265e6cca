import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Everything a ``SessionClient`` needs, with DESIGN.md's defaults.
public struct SessionClientConfiguration: Sendable {
    /// How `restore()` validates a stored session that looks valid.
    public enum LaunchValidation: Sendable, Hashable {
        /// Report `signedIn` at once, validate with the server behind it (default).
        case background
        /// Validate with the server before `restore()` returns.
        case blocking
        /// Do not contact the server at launch (a CLI that only needs a token, say):
        /// an unexpired token is reported `signedIn` on its expiry alone, an
        /// expired one is still refreshed first.
        case skip
    }

    /// The server.
    public var backend: any SessionBackend
    /// Where the session is kept between launches.
    public var store: any SessionStore
    /// Where time comes from; every expiry decision reads it.
    public var clock: any SessionClock
    /// How requests are sent (default: its own `URLSession`, 30 s / 60 s timeouts).
    public var transport: any HTTPTransport
    /// How `restore()` validates a valid-looking session (default `.background`).
    public var launchValidation: LaunchValidation
    /// Refresh at most this long before expiry (default 300 s; half the lifetime for short tokens).
    public var refreshBuffer: TimeInterval
    /// Treat a token as expired this long before its `exp` (default 60 s, at most a quarter of its lifetime).
    public var leeway: TimeInterval
    /// Transient-failure backoff (default full jitter, 1 s base, 5 min cap).
    public var backoff: Backoff
    /// Jitter for the backoff; seed it in tests.
    public var jitter: JitterSource
    /// Whether the client refreshes proactively and retries in the background
    /// (default `true`; a short-lived CLI may turn it off and refresh on demand).
    public var automaticRefresh: Bool
    /// Where the client logs. Tokens never appear beyond their first 6 characters.
    public var logger: Logger

    /// - Parameters:
    ///   - backend: `.goTrue(url:apiKey:)`, `.custom(...)` or your own ``SessionBackend``.
    ///   - store: `FileSessionStore(directory:)`, `KeychainSessionStore()` or ``InMemorySessionStore``.
    public init(
        backend: some SessionBackend,
        store: some SessionStore,
        clock: any SessionClock = SystemClock(),
        transport: any HTTPTransport = URLSessionTransport(),
        launchValidation: LaunchValidation = .background,
        refreshBuffer: TimeInterval = SessionDefaults.proactiveRefreshBuffer,
        leeway: TimeInterval = SessionDefaults.serverLeeway,
        backoff: Backoff = Backoff(),
        jitter: JitterSource = .system,
        automaticRefresh: Bool = true,
        logger: Logger = Logger(label: "SessionKit")
    ) {
        self.backend = backend
        self.store = store
        self.clock = clock
        self.transport = transport
        self.launchValidation = launchValidation
        self.refreshBuffer = refreshBuffer
        self.leeway = leeway
        self.backoff = backoff
        self.jitter = jitter
        self.automaticRefresh = automaticRefresh
        self.logger = logger
    }
}
