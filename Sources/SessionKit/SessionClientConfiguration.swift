import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Everything a ``SessionClient`` needs, with the defaults of docs/PROTOCOL.md.
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
    /// Origins ``SessionClient/send(_:)`` may attach the access token to, and
    /// follow a redirect to, besides the backend's own (``SessionBackend/origins``),
    /// which are always allowed: with hosted Supabase, the project's PostgREST,
    /// Functions and Storage. Add your API's origin when it is elsewhere
    /// (`nil` and `[]` both mean the backend's only).
    public var authorizedOrigins: [URL]?
    /// How long a call made while ``SessionClient/restore()`` runs waits for it (default 10 s).
    public var restoreWait: TimeInterval
    /// How long a refresh waits for another process's lock on the store
    /// before refreshing without it (default 10 s; real time, not `clock`).
    public var lockWait: TimeInterval
    /// Refused refreshes before the state becomes ``SessionState/needsAttention(_:reason:)``
    /// (default 5; never sooner than one access-token lifetime after the first).
    public var attentionAfterRefusals: Int
    /// Keeps the process running while it holds the store's lock (on iOS, an
    /// expiring activity; elsewhere nothing), so an app suspended mid-refresh
    /// does not hold a lock in a shared container.
    public var backgroundActivity: any BackgroundActivityProvider
    /// Whether the client follows the app's lifecycle itself (default `true`):
    /// on becoming active it calls ``SessionClient/resume()``, so a refresh
    /// that fell due while the app was suspended happens without app code.
    /// Observation starts with the first ``SessionClient/restore()`` and ends
    /// with ``SessionClient/shutdown()``.
    public var observesAppLifecycle: Bool
    /// Where lifecycle events come from (default: UIKit's or AppKit's
    /// notifications; nothing on other platforms). Tests pass a scripted source.
    public var appLifecycle: any AppLifecycleEvents
    /// DPoP (RFC 9449): bind sessions to a key only this installation holds
    /// (default `nil`, off). Set it after creating the configuration;
    /// docs/DPOP.md and the "Binding sessions to the device" article.
    public var dpop: DPoPConfiguration? = nil

    /// Creates a configuration; every argument but the backend and the store has the default of docs/PROTOCOL.md.
    ///
    /// - Parameters:
    ///   - backend: `.goTrue(url:apiKey:)`, `.custom(...)` or your own ``SessionBackend``.
    ///   - store: `FileSessionStore(directory:)`, `KeychainSessionStore()` or ``InMemorySessionStore``.
    ///   - clock: ``clock``.
    ///   - transport: ``transport``.
    ///   - launchValidation: ``launchValidation``.
    ///   - refreshBuffer: ``refreshBuffer``.
    ///   - leeway: ``leeway``.
    ///   - backoff: ``backoff``.
    ///   - jitter: ``jitter``.
    ///   - automaticRefresh: ``automaticRefresh``.
    ///   - logger: ``logger``.
    ///   - authorizedOrigins: ``authorizedOrigins``.
    ///   - restoreWait: ``restoreWait``.
    ///   - lockWait: ``lockWait``.
    ///   - attentionAfterRefusals: ``attentionAfterRefusals``.
    ///   - backgroundActivity: ``backgroundActivity``.
    ///   - observesAppLifecycle: ``observesAppLifecycle``.
    ///   - appLifecycle: ``appLifecycle``.
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
        logger: Logger = Logger(label: "SessionKit"),
        authorizedOrigins: [URL]? = nil,
        restoreWait: TimeInterval = SessionDefaults.restoreWait,
        lockWait: TimeInterval = SessionDefaults.lockWait,
        attentionAfterRefusals: Int = SessionDefaults.attentionAfterRefusals,
        backgroundActivity: any BackgroundActivityProvider = SystemBackgroundActivity(),
        observesAppLifecycle: Bool = true,
        appLifecycle: any AppLifecycleEvents = SystemAppLifecycle()
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
        self.authorizedOrigins = authorizedOrigins
        self.restoreWait = restoreWait
        self.lockWait = lockWait
        self.attentionAfterRefusals = attentionAfterRefusals
        self.backgroundActivity = backgroundActivity
        self.observesAppLifecycle = observesAppLifecycle
        self.appLifecycle = appLifecycle
    }
}
