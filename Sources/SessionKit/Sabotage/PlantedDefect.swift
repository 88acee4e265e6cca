/// A client defect the chaos harness plants to prove that it catches it.
///
/// Every case is a real way session SDKs lose sessions. The switch that turns
/// one on (``SessionClient/init(configuration:sabotage:)``) exists only when
/// the package trait `Sabotage` is enabled, which no app does: without it,
/// ``SessionClient/planted(_:)`` is the constant `false`. docs/RELIABILITY.md
/// lists which invariant catches each.
enum PlantedDefect: String, Sendable, CaseIterable {
    /// Treat any failed refresh (5xx, timeout, garbled body, a proxy's 401) as the end of the session.
    case transientEndsSession = "transient-ends-session"
    /// Refresh without the cross-process lock and without re-reading the store first.
    case skipLockAndReread = "skip-lock-and-reread"
    /// Make a refreshed session current (and usable) before it is persisted.
    case installBeforePersist = "install-before-persist"
    /// Persist nothing after a refresh.
    case persistNothing = "persist-nothing"
    /// Ignore the server clock offset learned from `Date` headers.
    case ignoreClockOffset = "ignore-clock-offset"
    /// End a session without publishing `sessionExpired`.
    case silentEnd = "silent-end"
    /// Sign out on any 401 an API call gets.
    case signOutOnAny401 = "sign-out-on-any-401"
    /// Forget the session in memory after a failed refresh, with no event and
    /// the store untouched: the app is told "not signed in" until a relaunch.
    case forgetOnTransient = "forget-on-transient"
    /// Keep answering the first failed refresh's error to every later refresh,
    /// never asking the server again until a relaunch: a cached error never cleared.
    case stickyFailure = "sticky-failure"
    /// Read old GoTrue's code-less `invalid_grant` texts ("Refresh Token Not
    /// Found", "Already Used") as a refusal: an ended session is kept and never announced.
    case ignoreLegacyEndTexts = "ignore-legacy-end-texts"
    /// Refresh and retry again while the API keeps rejecting the fresh token
    /// (a resource server with a stale JWKS): a refresh loop, five more rounds per request.
    case refreshUntilAccepted = "refresh-until-accepted"
    /// Retry a failed refresh within 15 s, however long the server has been
    /// failing (no growing backoff): hundreds of calls an hour in an outage.
    case retryEveryFewSeconds = "retry-every-few-seconds"
    /// Back off without jitter: devices that failed together retry together.
    case noJitter = "no-jitter"
    /// A sign-out deletes the record instead of writing the sign-out's record,
    /// so a legacy blob whose deletion was lost brings the session back (issue 31, row 10).
    case signOutDeletesRecord = "sign-out-deletes-record"
    /// The refresh timer holds its client, so a client the app dropped goes on
    /// refreshing (issue 31, row 8).
    case timerKeepsClient = "timer-keeps-client"
    /// A launch read the locked keychain refused is taken for "no session":
    /// a prewarmed launch publishes signed out (issue 31, row 5).
    case lockedStoreSignsOut = "locked-store-signs-out"
    /// `restore()` with a session in memory keeps it without re-reading the
    /// store: an extension goes on with a person the app signed out (issue 31, row 7).
    case restoreKeepsMemory = "restore-keeps-memory"
    /// `send` beside the actor (a request to the app's own API with a valid
    /// token) hands a 401 straight to the app: the engine never sees the
    /// rejection, so nothing refreshes and retries, and an ended session is
    /// never announced (issue 44).
    case fastPathSkipsRejection = "fast-path-skips-rejection"
}
