import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Keeps one person signed in: stores the session, refreshes it before it
/// expires, survives network faults and other processes, and ends it only
/// when the server says it is over.
///
/// ```swift
/// let client = SessionClient(configuration: .init(
///     backend: .goTrue(url: serverURL, apiKey: anonKey),
///     store: FileSessionStore(directory: dir)))
/// let state = try await client.restore()
/// let token = try await client.accessToken()
/// ```
///
/// The refresh protocol (single flight, the store's lock and sequence
/// numbers, which answers end a session) is docs/PROTOCOL.md.
///
/// - Important: Every public method throws only ``SessionError``.
public actor SessionClient {
    /// What this client was created with.
    public nonisolated let configuration: SessionClientConfiguration

    nonisolated let logger: Logger
    let broadcaster = StateBroadcaster()
    var machine: RefreshStateMachine { didSet { publishTokenSnapshot() } }

    /// The session in memory: the authority while the process runs (the store may lag after a failed write).
    var current: Session? { didSet { publishTokenSnapshot() } }
    /// `current`'s token for ``accessToken()``'s lock-only read; see ``TokenSnapshot``.
    nonisolated let tokenSnapshot = TokenSnapshot()
    /// Bumped whenever the session is replaced by another or ended, so late results are dropped.
    var generation: UInt64 = 0
    /// The highest record sequence this client has read from or written to the store.
    var lastSeenSequence: UInt64 = 0
    /// The refresh token this client last saw in the store (records of older builds carry no sequence).
    var lastStoredRefreshToken: String?
    /// A record that could not be saved yet; retried until it is.
    var pendingWrite: StoredSession?
    /// The OAuth sign-in in progress (its verifier and state), as kept in the store.
    var pendingOAuth: PendingOAuth?
    /// The single in-flight refresh.
    var inflight: RefreshFlight?
    var flightCounter: UInt64 = 0
    var isOffline = false { didSet { if isOffline != oldValue { publishTokenSnapshot() } } }
    var isShutDown = false
    var timer: Task<Void, Never>?
    var writeRetryTask: Task<Void, Never>?
    var validation: Task<Void, Never>?
    /// The launch read in progress, joined by a second `restore()` and by calls made meanwhile.
    var restoreTask: Task<Result<SessionState, SessionError>, Never>?
    /// True once a launch read has finished (or a sign-in made it moot).
    var hasRestored = false
    /// The timer that reads the store again after a launch read it could not (see `SessionClient+RestoreRetry.swift`).
    var restoreRetryTask: Task<Void, Never>?
    /// How many timed launch re-reads have run since the last successful one.
    var restoreRetryAttempts = 0
    /// An unlock or activation arrived while a launch read was in flight: if
    /// that read fails, it is read again at once, since its answer may predate the unlock.
    var restoreRereadRequested = false
    /// Serialises this client's read-decide-write sequences on the store (see ``withStoreAccess(_:)``).
    var storeBusy = false
    var storeWaiters: [CheckedContinuation<Void, Never>] = []
    /// The import in progress, joined by a second import of the same tokens (see ``importSession(accessToken:refreshToken:expiresAt:user:)``).
    var importFlight: ImportFlight?
    /// Hand-rolled session blobs a migration found; a sign-out removes them.
    var legacySessions: [LegacySessionLocation] = []

    /// One refresh in flight, keyed by the refresh token it uses.
    struct RefreshFlight {
        let id: UInt64
        let refreshToken: String
        let task: Task<Result<Session, SessionError>, Never>
    }

    /// An OAuth sign-in started here and not finished yet.
    struct PendingOAuth: Sendable, Hashable {
        var verifier: String
        var state: String?
        var startedAt: Date?

        init?(_ record: StoredSession?) {
            guard let verifier = record?.pkceVerifier, !verifier.isEmpty else { return nil }
            self.init(verifier: verifier, state: record?.oauthState, startedAt: record?.oauthStartedAt)
        }

        init(verifier: String, state: String?, startedAt: Date?) {
            self.verifier = verifier
            self.state = state
            self.startedAt = startedAt
        }
    }

    /// A defect the chaos harness planted; nil outside its builds (see ``planted(_:)``).
    let plantedDefect: PlantedDefect?
    /// The DPoP proof maker, when ``SessionClientConfiguration/dpop`` is set.
    nonisolated let proofs: DPoPProofs?
    /// The app's and the backend's origins, parsed once (see ``AllowedOrigins``).
    nonisolated let origins: AllowedOrigins

    public init(configuration: SessionClientConfiguration) {
        self.init(configuration: configuration, plantedDefect: nil)
    }

    init(configuration: SessionClientConfiguration, plantedDefect: PlantedDefect?) {
        self.plantedDefect = plantedDefect
        self.configuration = configuration
        self.logger = configuration.logger
        self.proofs = configuration.dpop.map(DPoPProofs.init(configuration:))
        self.origins = AllowedOrigins(
            authorizedOrigins: configuration.authorizedOrigins, backendOrigins: configuration.backend.origins)
        self.machine = RefreshStateMachine(
            configuration: .init(
                buffer: configuration.refreshBuffer, leeway: configuration.leeway,
                // The `retry-every-few-seconds` sabotage: a 15 s ceiling, as SDKs that retry on a short timer.
                backoff: plantedDefect == .retryEveryFewSeconds ? Backoff(base: 15, cap: 15) : configuration.backoff,
                attentionAfterRefusals: configuration.attentionAfterRefusals))
    }

    var clock: any SessionClock { configuration.clock }
    var store: any SessionStore { configuration.store }
    nonisolated var backend: any SessionBackend { configuration.backend }

    // MARK: - Observing

    /// The state now and every change after it. Each access makes a new stream
    /// for one subscriber; the current state comes first.
    ///
    /// A new client is ``SessionState/restoring`` until ``restore()`` (or the
    /// first call that needs the session) has read the store, so an app never
    /// shows its sign-in screen before it knows.
    public nonisolated var states: AsyncStream<SessionState> { broadcaster.states() }

    /// Every event from now on. Each access makes a new stream for one subscriber.
    public nonisolated var events: AsyncStream<SessionEvent> { broadcaster.events() }

    /// The state right now.
    public nonisolated var currentState: SessionState { broadcaster.current }

    /// The session in memory, if signed in, as supabase-swift's `auth.currentSession`:
    /// it may be expired. ``session`` (or ``accessToken()``) gives a usable one.
    public var currentSession: Session? { current }

    /// The estimated server clock minus the local clock, in seconds (from the auth backend's `Date` headers).
    public func serverClockOffset() -> TimeInterval { machine.offset.seconds }
}
