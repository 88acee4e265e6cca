import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Every write to the store: serialised inside the process, under the
/// store's lock across processes, after a re-read, with the next sequence
/// number — so nothing is written after it stopped being true, and no
/// process pushes the store back (docs/PROTOCOL.md, "Store records").
extension SessionClient {
    /// Runs `body` with this client's store access to itself.
    ///
    /// The actor alone does not serialise a read-decide-write: it is
    /// re-entered at every `await`, so a sign-out could clear the store
    /// between a write retry's re-read and its write. Sections are short
    /// (store I/O, never the network) and must not nest. Lock order: the
    /// cross-process lock (``withStoreLock(_:_:)``) outside, this inside.
    func withStoreAccess<T: Sendable>(_ body: () async -> T) async -> T {
        while storeBusy {
            await withCheckedContinuation { storeWaiters.append($0) }
        }
        storeBusy = true
        let value = await body()
        storeBusy = false
        if !storeWaiters.isEmpty { storeWaiters.removeFirst().resume() }
        return value
    }

    /// What ``updateRecord(_:lock:_:)`` did.
    enum RecordUpdate: Sendable {
        /// Written (verified), as the store's next record.
        case saved(StoredSession)
        /// Nothing written: the change declined, or the lock was busy and not to be waited for.
        case unchanged
        case unreadable(SessionStoreError)
        case unwritable(SessionStoreError)
    }

    /// How ``updateRecord(_:lock:_:)`` takes the store's cross-process lock.
    enum LockWait: Sendable {
        /// Bounded by ``SessionClientConfiguration/lockWait``; on timeout, without it (rule D).
        case bounded
        /// Only if nobody holds it (optional work: its holder writes anyway).
        case ifFree
    }

    /// Rule A (docs/PROTOCOL.md, "The rules"): every write to the shared store
    /// takes the lock, re-reads, and writes the next sequence.
    ///
    /// `change` turns what the store holds now into the record to write (`nil`:
    /// write nothing). It is synchronous on purpose: nothing can run between
    /// the re-read and the write it decides, so no critical section suspends.
    func updateRecord(
        _ purpose: String, lock wait: LockWait = .bounded, _ change: (StoredSession?) -> StoredSession?
    ) async -> RecordUpdate {
        let lock: HeldStoreLock?
        switch wait {
        case .bounded:
            lock = await takeLock(for: purpose)
        case .ifFree:
            guard let free = await takeLockIfFree() else { return .unchanged }
            lock = free
        }
        let outcome: RecordUpdate = await withStoreAccess {
            let stored: StoredSession?
            do throws(SessionStoreError) {
                stored = try await store.load()
            } catch {
                return .unreadable(error)
            }
            guard var record = change(stored) else { return .unchanged }
            record.sequence = nextSequence(after: stored)
            do throws(SessionStoreError) {
                try await store.save(record)
            } catch {
                return .unwritable(error)
            }
            noteWritten(record)
            return .saved(record)
        }
        await lock?.unlock()
        return outcome
    }

    /// `record` with the server clock offset this client knows, so another
    /// process (or the next launch) starts from it.
    func stamped(_ record: StoredSession) -> StoredSession {
        var copy = record
        copy.serverClockOffset = machine.offset.isKnown ? machine.offset.seconds : record.serverClockOffset
        return copy
    }

    /// Starts from the offset a record remembers when this process has not learned one yet.
    func rememberClock(from record: StoredSession?) {
        guard !machine.offset.isKnown, let seconds = record?.serverClockOffset else { return }
        machine.offset = ServerClockOffset(remembered: seconds)
    }

    /// The next sequence number after what this client has seen and `stored` (rule A).
    func nextSequence(after stored: StoredSession?) -> UInt64 {
        max(lastSeenSequence, stored?.sequence ?? 0) + 1
    }

    /// Saves a newly signed-in session (sign-in, OAuth, import) as the store's next record.
    ///
    /// A new sign-in wins over whatever is stored, but is numbered after it,
    /// so other processes adopt it.
    func saveNewSession(_ session: Session, holding lock: HeldStoreLock?) async -> Result<StoredSession, SessionStoreError> {
        if lock != nil { return await withStoreAccess { await saveNewRecord(session) } }
        return await withStoreLock("sign-in") { await withStoreAccess { await saveNewRecord(session) } }
    }

    private func saveNewRecord(_ session: Session) async -> Result<StoredSession, SessionStoreError> {
        var stored: StoredSession?
        do {
            stored = try await store.load()
        } catch {
            // Unreadable (a corrupt record was moved aside): the new session replaces it.
            logger.notice("The store could not be read before a sign-in; writing anyway", metadata: ["reason": "\(error)"])
        }
        let record = stamped(StoredSession(session, sequence: nextSequence(after: stored)))
        let result: Result<StoredSession, SessionStoreError>
        do throws(SessionStoreError) {
            try await store.save(record)
            noteWritten(record)
            result = .success(record)
        } catch {
            result = .failure(error)
        }
        return result
    }

    /// Rule F (docs/PROTOCOL.md, "The rules"): retries ``pendingWrite`` under
    /// the lock, after a re-read, only if the store has not moved on (another
    /// process refreshed or signed out); else adopts what it holds.
    ///
    /// - Parameter lock: the store's lock the caller (a refresh) already holds.
    /// - Returns: `true` when the write must be tried again.
    @discardableResult
    func retryPendingWrite(holding lock: HeldStoreLock? = nil) async -> Bool {
        guard let record = pendingWrite, let session = current else { return false }
        let gen = generation
        let step = { () async -> PendingWriteOutcome in
            await self.withStoreAccess { await self.pendingWriteStep(record, session: session, generation: gen) }
        }
        let outcome = lock != nil ? await step() : await withStoreLock("saving a refreshed session") { await step() }
        return await settle(outcome, record: record)
    }

    enum PendingWriteOutcome: Sendable {
        case done, again
        case adopt(StoredSession)
        case signedOutElsewhere
    }

    /// One attempt at writing `record`: re-read, adopt if the store moved on, else save.
    private func pendingWriteStep(_ record: StoredSession, session: Session, generation gen: UInt64) async -> PendingWriteOutcome {
            guard gen == generation, pendingWrite == record else { return .done }
            let stored: StoredSession?
            do {
                stored = try await store.load()
            } catch {
                logger.warning("The store could not be re-read before saving again; will retry", metadata: ["reason": "\(error)"])
                return .again
            }
            if let stored, stored.holdsSession, isNewer(stored, than: session) { return .adopt(stored) }
            if stored?.holdsSession != true, lastStoredRefreshToken != nil { return .signedOutElsewhere }
            var next = stamped(record)
            next.sequence = nextSequence(after: stored)
            do {
                try await store.save(next)
            } catch {
                logger.warning("Saving the session failed again; will retry", metadata: ["reason": "\(error)"])
                return .again
            }
            noteWritten(next)
            return .done
    }

    private func settle(_ outcome: PendingWriteOutcome, record: StoredSession) async -> Bool {
        switch outcome {
        case .again:
            return true
        case .done:
            if pendingWrite == record {
                pendingWrite = nil
                logger.info("The session was saved after an earlier failure")
            }
            return false
        case .adopt(let stored):
            // Another process refreshed meanwhile: its record is the server's chain, ours is behind.
            pendingWrite = nil
            adopt(stored)
            return false
        case .signedOutElsewhere:
            pendingWrite = nil
            logger.info("The stored session was removed by another process while ours waited to be saved; signed out")
            await endSession(.silently, clearStore: false)
            return false
        }
    }

    /// Deletes the stored record if it still holds `ended` (or nothing newer):
    /// a session another process signed in meanwhile is left alone.
    ///
    /// - Parameter lock: the store's lock the caller (a refresh) already holds.
    /// - Returns: the error, if the record could not be deleted.
    func clearStoredSession(ended: Session?, holding lock: HeldStoreLock? = nil) async -> SessionError? {
        if lock != nil { return await withStoreAccess { await clearIfStill(ended) } }
        return await withStoreLock("sign-out") { await withStoreAccess { await clearIfStill(ended) } }
    }

    private func clearIfStill(_ ended: Session?) async -> SessionError? {
        var stored: StoredSession?
        do {
            stored = try await store.load()
        } catch {
            // Unreadable: deleting it is what a sign-out wants anyway.
            logger.notice("The store could not be re-read before clearing it", metadata: ["reason": "\(error)"])
        }
        if let stored, stored.holdsSession, let ended, !belongs(stored, to: ended) {
            logger.info("The store holds a newer session (another sign-in); leaving it")
            return nil
        }
        // A sign-out's record keeps the sequence (see StoredSession.signedOut).
        if planted(.signOutDeletesRecord) { return await deleteRecord() }
        let tombstone = StoredSession.signedOut(sequence: nextSequence(after: stored))
        do {
            try await store.save(tombstone)
            noteWritten(tombstone)
            return nil
        } catch {
            logger.warning("The sign-out could not be recorded; deleting the record instead", metadata: ["reason": "\(error)"])
        }
        return await deleteRecord()
    }

    private func deleteRecord() async -> SessionError? {
        do {
            try await store.clear()
            return nil
        } catch {
            logger.error("The stored session could not be deleted", metadata: ["reason": "\(error)"])
            return SessionError.persistenceFailed.with(
                message: "The session could not be deleted from this device.", underlying: error.reason)
        }
    }

    /// True when `record` is further along the store's history than what this client holds.
    func isNewer(_ record: StoredSession, than session: Session) -> Bool {
        if record.refreshToken == session.refreshToken { return false }
        // This build never writes 0: such a record comes from a build that
        // predates sequences (an extension not yet updated) and replaced
        // ours, so a refresh token we have not seen is newer.
        if record.sequence == 0 { return record.refreshToken != lastStoredRefreshToken }
        return record.sequence > lastSeenSequence
    }

    /// True when `record` is `ended` or an older or same-session version of it.
    private func belongs(_ record: StoredSession, to ended: Session) -> Bool {
        if record.refreshToken == ended.refreshToken { return true }
        // Session ids, when both are known, decide: another session is another sign-in.
        if let endedID = ended.sessionID, let storedID = record.session.sessionID { return storedID == endedID }
        return record.sequence <= lastSeenSequence
    }

    /// Records a successful write.
    func noteWritten(_ record: StoredSession) {
        lastSeenSequence = max(lastSeenSequence, record.sequence)
        if record.holdsSession { lastStoredRefreshToken = record.refreshToken }
    }

    /// The stored form of the OAuth sign-in in progress (carried over by session writes).
    func pendingRecord() -> StoredSession? {
        pendingOAuth.map {
            StoredSession.pendingOAuth(verifier: $0.verifier, state: $0.state, startedAt: $0.startedAt)
        }
    }

    func startWriteRetry() {
        writeRetryTask?.cancel()
        guard !isShutDown else { return }
        let clock = self.clock
        let backoff = configuration.backoff
        let jitter = configuration.jitter
        writeRetryTask = Task { [weak self] in
            var attempt = 0
            while true {
                attempt += 1
                // At least a second apart, so a broken disk is not hammered.
                let delay = max(1, backoff.delay(attempt: attempt, jitter: jitter.unit()))
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return  // cancelled: a newer write or the end of the session
                }
                guard let self, await self.retryPendingWrite() else { return }
            }
        }
    }
}
