import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Taking in what another process wrote (adoption, which only moves
/// forward), and making a session current (docs/PROTOCOL.md, "Store records").
extension SessionClient {
    enum AdoptionResult {
        /// The store holds a session newer than the caller's, and it is now `current`
        /// (adopted by this call, or already by another path of this client).
        case adopted(Session)
        case signedOutElsewhere
        case unchanged
        /// The store could not be read; the in-memory session stays the authority.
        case unreadable(SessionStoreError)
    }

    /// Re-reads the store; adopts a session another process wrote meanwhile.
    ///
    /// Rule A's other half: adoption only moves forward: a record is adopted when its sequence is
    /// higher than any this client has seen, never an older one.
    func adoptStoredSessionIfNewer(than session: Session, generation gen: UInt64) async -> AdoptionResult {
        let read: Result<StoredSession?, SessionStoreError> = await guardedLoad()
        let record: StoredSession?
        switch read {
        case .success(let value):
            record = value
        case .failure(let error):
            // The in-memory session stays the authority; the refresh will rewrite the store.
            logger.error("The session store could not be re-read", metadata: ["reason": "\(error)"])
            return .unreadable(error)
        }
        guard gen == generation else { return .unchanged }
        // A record holding only a pending OAuth verifier holds no session: as if none were stored.
        guard let record, record.holdsSession else {
            if lastStoredRefreshToken != nil, pendingWrite == nil {
                logger.info("The stored session was removed by another process; signed out")
                await endSession(.silently, clearStore: false)
                return .signedOutElsewhere
            }
            return .unchanged
        }
        guard isNewer(record, than: session) else {
            if record.refreshToken == session.refreshToken { noteWritten(record) }
            // This client already took the record in, through a path other than the caller: a
            // store-change notification's re-read while a refresh waited for the lock
            // (docs/PROTOCOL.md, "Hearing other processes"). The sequence alone now calls it
            // old, but the caller's session is behind it: refreshing that would send a refresh
            // token another process has already rotated (to be answered by the server's grace at
            // best, as reuse at worst).
            if let latest = current, latest.refreshToken == record.refreshToken, latest.refreshToken != session.refreshToken {
                return .adopted(latest)
            }
            return .unchanged
        }
        return .adopted(adopt(record))
    }

    /// Makes a record another process wrote current (same generation: it is
    /// the same sign-in, further along) and says so.
    @discardableResult
    func adopt(_ record: StoredSession) -> Session {
        rememberClock(from: record)
        var adopted = record.session
        if adopted.user == nil { adopted.user = current?.user }
        noteWritten(record)
        pendingWrite = nil
        writeRetryTask?.cancel()
        install(adopted)
        logger.info("Adopted the session another process refreshed", metadata: ["refresh_token": "\(TokenRedaction.fingerprint(adopted.refreshToken))"])
        broadcaster.publish(.adoptedStoredSession(adopted))
        return adopted
    }

    /// Makes `session` current (same person, new tokens) and schedules its refresh.
    func install(_ session: Session) {
        setCurrent(session)
        apply(machine.sessionChanged(to: session, now: clock.now))
    }

    /// As ``install(_:)``, for a session this client just refreshed with a
    /// request sent at `sentAt`: a token that is already due on arrival waits
    /// a backoff before the next refresh, unless it was only read late.
    func installRefreshed(_ session: Session, sentAt: Date) {
        setCurrent(session)
        apply(
            machine.refreshSucceeded(
                with: session, sentAt: sentAt, now: clock.now, jitter: configuration.jitter.unit()))
    }

    private func setCurrent(_ session: Session) {
        current = session
        if isOffline {
            isOffline = false
            broadcaster.publish(.online)
        }
        broadcaster.set(.signedIn(session))
    }

    func markOffline(_ session: Session) {
        broadcaster.set(.offline(session))
        if !isOffline {
            isOffline = true
            broadcaster.publish(.offline)
        }
    }
}
