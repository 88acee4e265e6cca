import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Launch: reading the stored session, once, and making every call made
/// meanwhile wait for it instead of answering "not signed in".
extension SessionClient {
    /// Reads the stored session at launch and reports where the person stands.
    ///
    /// Never hands out a token on the mere existence of tokens. With
    /// `.background` (the default) a stored session is reported at once and
    /// checked behind it: a valid access token is validated with the server,
    /// an expired one is refreshed, and ``accessToken()`` waits for that
    /// refresh. With `.blocking` (and `.skip`, for an expired token) the
    /// refresh or validation happens before this returns (offline →
    /// `offline(Session)`, never `signedOut`). Calls made while
    /// it runs (``accessToken()``, ``send(_:)``) wait for it; a second call
    /// joins the first. Called again later, it re-reads the store and adopts
    /// what another process wrote, without passing through `restoring`.
    ///
    /// A read the store cannot do yet (a locked device) is tried again by
    /// itself: when protected data becomes available, when the app becomes
    /// active, and on a bounded timer. Called again while signed out or
    /// expired, it never goes back to `restoring`.
    ///
    /// - Throws: ``SessionError/storeCorrupted`` when the record was unreadable
    ///   (it was moved aside; the state is `signedOut`),
    ///   ``SessionError/storeInaccessible`` when the store refuses this app
    ///   for a reason waiting cannot fix (a missing entitlement, a damaged
    ///   item, a newer app's record: the state is `signedOut`, the item is
    ///   kept), or ``SessionError/storeUnavailable`` when it cannot be read
    ///   right now (the state stays `restoring`; it is retried).
    @discardableResult
    public func restore() async throws(SessionError) -> SessionState {
        startObservingLifecycle()
        return try await (restoreTask ?? startRestore()).value.get()
    }

    private func startRestore() -> Task<Result<SessionState, SessionError>, Never> {
        // Set before any `await`, so a concurrent caller joins this one.
        let task = Task { await self.performRestore() }
        restoreTask = task
        return task
    }

    /// Waits for the launch read (starting it if nobody has), at most
    /// ``SessionClientConfiguration/restoreWait`` of clock time.
    ///
    /// This is what keeps a SwiftUI `.task` that fires before the Keychain
    /// read from seeing "not signed in" for a person who is.
    func ensureRestored() async throws(SessionError) {
        if hasRestored || current != nil { return }
        // The lazy restore is a first use too: refresh-on-resume and the last-chance save follow from here.
        startObservingLifecycle()
        let task = restoreTask ?? startRestore()
        guard let result = await BoundedWait.value(of: task, atMost: configuration.restoreWait, clock: clock) else {
            throw SessionError.storeUnavailable.with(
                message: "The saved session is still being read. Try again in a moment.")
        }
        if case .failure(let error) = result, error == .storeUnavailable { throw error }
    }

    /// Waits for a launch read in progress, if any, without starting one.
    func waitForRunningRestore() async {
        guard let task = restoreTask else { return }
        _ = await BoundedWait.value(of: task, atMost: configuration.restoreWait, clock: clock)
    }

    private func performRestore() async -> Result<SessionState, SessionError> {
        defer { restoreTask = nil }
        if let session = current {
            // Already signed in: re-sync with the store, never flash `restoring`
            // and never bump the generation (that would drop a refresh in flight).
            if !planted(.restoreKeepsMemory) {
                _ = await adoptStoredSessionIfNewer(than: session, generation: generation)
            }
            hasRestored = true
            return .success(broadcaster.current)
        }
        // Only the first read shows `restoring`: a second one (a new window) must not tear down a sign-in form.
        if !hasRestored { broadcaster.set(.restoring) }
        restoreRereadRequested = false
        var read = await guardedLoad()
        if case .failure(let error) = read, restoreRereadRequested, !error.isCorrupt, !error.isInaccessible, !error.isUnsupportedVersion {
            // The person unlocked or opened the app while the keychain was being asked.
            logger.info("Reading the stored session again: the app was unlocked or became active during the read")
            restoreRereadRequested = false
            read = await guardedLoad()
        }
        // A sign-in may have finished while the store was read: it wins.
        if current != nil {
            hasRestored = true
            return .success(broadcaster.current)
        }
        let record: StoredSession?
        switch read {
        case .success(let value):
            record = value
        case .failure(let error):
            if error.isCorrupt {
                logger.error("The stored session was corrupt and was moved aside", metadata: ["reason": "\(error)"])
                hasRestored = true
                broadcaster.set(.signedOut)
                return .failure(SessionError.storeCorrupted.with(underlying: error.reason))
            }
            if error.isInaccessible || error.isUnsupportedVersion {
                // No unlock fixes this: let the person reach the sign-in screen; the item stays as it is.
                logger.error("The stored session cannot be reached by this app", metadata: ["reason": "\(error)"])
                endRestore(showing: .signedOut)
                return .failure(SessionError.storeInaccessible.with(underlying: error.reason))
            }
            if let lockReason = error.lockReason {
                // The biometric gate: the record stays stored; the app shows "Unlock" and calls
                // restore() again. No timed re-read: asking again unbidden would loop on a cancel.
                logger.notice("The stored session is behind the biometric gate", metadata: ["reason": "\(lockReason)"])
                endRestore(showing: .locked(lockReason))
                return .failure(SessionError.storeUnavailable.with(underlying: error.reason))
            }
            if planted(.lockedStoreSignsOut) {
                endRestore(showing: .signedOut)
                return .success(broadcaster.current)
            }
            // The state stays `restoring`: the store may be readable later (a locked device).
            logger.error("The stored session could not be read", metadata: ["reason": "\(error)"])
            if !hasRestored { scheduleRestoreRetry() }
            return .failure(SessionError.storeUnavailable.with(underlying: error.reason))
        }
        restoreSucceeded()
        pendingOAuth = PendingOAuth(record)
        lastSeenSequence = max(lastSeenSequence, record?.sequence ?? 0)
        // Before any expiry decision: the device clock may be days off the server's.
        rememberClock(from: record)
        guard let record, record.holdsSession else {
            // A record may hold only an OAuth sign-in in progress: its verifier waits for the callback.
            logger.info("No stored session; signed out")
            endRestore(showing: .signedOut)
            return .success(broadcaster.current)
        }
        let session = record.session
        generation += 1
        let gen = generation
        current = session
        lastStoredRefreshToken = record.refreshToken
        hasRestored = true
        // A bound session restored onto a device without its key (a backup on
        // a new phone, a reset keychain) can never refresh here: it ends now, once (docs/DPOP.md).
        if await !checkProofKey(for: session) { return .success(broadcaster.current) }

        if machine.isExpired(session, now: clock.now), configuration.launchValidation == .background {
            // The person sees their signed-in screen at once, not a spinner
            // through a network round trip; nothing gets the expired token:
            // `accessToken()` and `send` wait for this refresh (single flight),
            // and a terminal answer still ends the session (docs/PROTOCOL.md, "Launch").
            logger.info("The stored access token has expired; showing the session and refreshing behind it")
            broadcaster.set(.signedIn(session))
            validation = Task { [weak self] in await self?.refreshAtLaunch(generation: gen) }
            return .success(broadcaster.current)
        }
        if machine.isExpired(session, now: clock.now) {
            logger.info(
                "The stored access token has expired; refreshing before reporting signed in",
                metadata: ["refresh_token": "\(TokenRedaction.fingerprint(session.refreshToken))"])
            do {
                _ = try await refreshSession(reason: .expired, honouringBackoff: false)
            } catch {
                // The refresh path set `offline`, `needsAttention` or `expired`.
                // If nothing did (the flight was superseded), say what we hold.
                if gen == generation, let current, broadcaster.current == .restoring { markOffline(current) }
            }
            return .success(broadcaster.current)
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
        return .success(broadcaster.current)
    }

    /// The background launch's refresh of an expired stored session.
    func refreshAtLaunch(generation gen: UInt64) async {
        guard gen == generation, current != nil else { return }
        do {
            _ = try await refreshSession(reason: .expired, honouringBackoff: false)
        } catch {
            // The refresh path already set `offline`, `needsAttention` or `expired`.
            logger.notice("The stored session could not be refreshed at launch", metadata: ["reason": "\(error.message)"])
        }
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
