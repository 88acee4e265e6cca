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
/// - Important: Every public method throws only ``SessionError``.
public actor SessionClient {
    /// What this client was created with.
    public nonisolated let configuration: SessionClientConfiguration

    let logger: Logger
    let broadcaster = StateBroadcaster()
    var machine: RefreshStateMachine

    /// The session in memory: the authority while the process runs (the store may lag after a failed write).
    var current: Session?
    /// Bumped whenever the session is replaced or ended, so late results are dropped.
    var generation: UInt64 = 0
    /// The refresh token this client last saw in the store (read or written).
    var lastStoredRefreshToken: String?
    /// A record that could not be saved yet; retried until it is.
    var pendingWrite: StoredSession?
    /// A PKCE verifier kept in the record for an OAuth sign-in in progress.
    var pkceVerifier: String?
    /// The single in-flight refresh.
    var inflight: RefreshFlight?
    var flightCounter: UInt64 = 0
    var isOffline = false
    var isShutDown = false
    var timer: Task<Void, Never>?
    var writeRetryTask: Task<Void, Never>?
    var validation: Task<Void, Never>?

    /// One refresh in flight, keyed by the refresh token it uses.
    struct RefreshFlight {
        let id: UInt64
        let refreshToken: String
        let task: Task<Result<Session, SessionError>, Never>
    }

    public init(configuration: SessionClientConfiguration) {
        self.configuration = configuration
        self.logger = configuration.logger
        self.machine = RefreshStateMachine(
            configuration: .init(
                buffer: configuration.refreshBuffer, leeway: configuration.leeway, backoff: configuration.backoff))
    }

    var clock: any SessionClock { configuration.clock }
    var store: any SessionStore { configuration.store }
    var backend: any SessionBackend { configuration.backend }

    // MARK: - Observing

    /// The state now and every change after it. Each access makes a new stream
    /// for one subscriber; the current state comes first.
    public nonisolated var states: AsyncStream<SessionState> { broadcaster.states() }

    /// Every event from now on. Each access makes a new stream for one subscriber.
    public nonisolated var events: AsyncStream<SessionEvent> { broadcaster.events() }

    /// The state right now.
    public nonisolated var currentState: SessionState { broadcaster.current }

    /// The session in memory, if signed in. It may be expired; use ``accessToken()`` for a usable token.
    public func session() -> Session? { current }

    /// The estimated server clock minus the local clock, in seconds (from `Date` headers).
    public func serverClockOffset() -> TimeInterval { machine.offset.seconds }

    // MARK: - Launch

    /// Reads the stored session at launch and reports where the person stands.
    ///
    /// Never reports `signedIn` on the mere existence of tokens: an expired
    /// access token is refreshed first (offline → `offline(Session)`, never
    /// `signedOut`), and a valid one is validated with the server, behind
    /// (`.background`) or before returning (`.blocking`).
    ///
    /// - Throws: ``SessionError/storeCorrupted`` when the record was unreadable
    ///   (it was moved aside; the state is `signedOut`), or
    ///   ``SessionError/storeUnavailable`` when it cannot be read right now
    ///   (the state stays `restoring`; call again later).
    @discardableResult
    public func restore() async throws(SessionError) -> SessionState {
        broadcaster.set(.restoring)
        let record: StoredSession?
        do {
            record = try await store.load()
        } catch {
            if error.isCorrupt {
                logger.error("The stored session was corrupt and was moved aside", metadata: ["reason": "\(error)"])
                broadcaster.set(.signedOut)
                throw SessionError.storeCorrupted.with(underlying: error.reason)
            }
            logger.error("The stored session could not be read", metadata: ["reason": "\(error)"])
            throw SessionError.storeUnavailable.with(underlying: error.reason)
        }
        guard let record, record.holdsSession else {
            // A record may hold only an OAuth sign-in in progress: keep its verifier for the callback.
            pkceVerifier = record?.pkceVerifier
            logger.info("No stored session; signed out")
            broadcaster.set(.signedOut)
            return .signedOut
        }
        let session = record.session
        generation += 1
        current = session
        lastStoredRefreshToken = record.refreshToken
        pkceVerifier = record.pkceVerifier
        let gen = generation

        if machine.isExpired(session, now: clock.now) {
            logger.info(
                "The stored access token has expired; refreshing before reporting signed in",
                metadata: ["refresh_token": "\(TokenRedaction.prefix(session.refreshToken))"])
            do {
                _ = try await refreshSession(reason: .expired)
            } catch {
                // The refresh path already set `offline` (transient) or `expired` (terminal).
                if gen == generation, let current, !isOffline { broadcaster.set(.offline(current)) }
            }
            return broadcaster.current
        }

        broadcaster.set(.signedIn(session))
        apply(machine.sessionChanged(to: session, now: clock.now))
        switch configuration.launchValidation {
        case .skip:
            break
        case .blocking:
            await validate(generation: gen)
        case .background:
            validation = Task { [weak self] in await self?.validate(generation: gen) }
        }
        return broadcaster.current
    }

    /// Asks the server whether the session still stands (a `currentUser` call,
    /// which refreshes once on 401 and ends the session only on a terminal answer).
    func validate(generation gen: UInt64) async {
        guard gen == generation, current != nil else { return }
        do {
            _ = try await me()
            logger.debug("The stored session was validated with the server")
        } catch {
            // Offline and expiry are already reflected in the state by the request path.
            logger.notice("The stored session could not be validated", metadata: ["reason": "\(error.message)"])
        }
    }
}
