import Foundation
import Logging
import SessionCore

/// ``SessionClient`` is the one ``SessionEngine``: what the account flows in
/// `Accounts/` reach it by, beyond the members the engine files already have.
extension SessionClient: SessionEngine {
    var now: Date { clock.now }

    /// The server's now: the device clock corrected by the offset learned from
    /// the auth backend's `Date` headers (docs/PROTOCOL.md, "The server's clock").
    var serverNow: Date { machine.offset.serverTime(at: clock.now) }

    func isExpired(_ session: Session) -> Bool { machine.isExpired(session, now: clock.now) }

    @discardableResult
    func establish(_ session: Session, keepingUnsaved: Bool) async throws(SessionError) -> SessionGeneration {
        try await establish(session, keepingUnsaved: keepingUnsaved, holding: nil)
    }

    func endSession(_ reason: EndReason) async {
        await endSession(reason, clearStore: true)
    }

    func checkInBackground(_ generation: SessionGeneration, confirming confirm: @escaping SessionConfirmation) {
        validation = Task { [weak self] in await self?.confirmLater(generation: generation, confirm) }
    }

    /// Retries the confirmation of a new session with backoff until the server answers.
    private func confirmLater(generation gen: SessionGeneration, _ confirm: SessionConfirmation) async {
        var attempt = 0
        while isCurrent(gen), let session = current, !isShutDown {
            attempt += 1
            do {
                try await clock.sleep(for: configuration.backoff.delay(attempt: attempt, jitter: configuration.jitter.unit()))
            } catch {
                return  // cancelled: the session ended or the client shut down
            }
            guard isCurrent(gen) else { return }
            do {
                let user = try await confirm(self, session)
                if isCurrent(gen) { await replaceUser(with: user) }
                return
            } catch where error.isTransient {
                continue
            } catch {
                logger.notice("The server refused the new OAuth session; signing out", metadata: ["reason": "\(error)"])
                if isCurrent(gen) { await endSession(.silently) }
                return
            }
        }
    }

    /// Writes the verifier and `state` beside what the store holds now (rule A),
    /// never beside an older session from memory.
    func beginOAuth(_ pending: PendingOAuth) async throws(SessionError) {
        let memory = pendingWrite ?? current.map { StoredSession($0) }
        let update = await updateRecord("starting an OAuth sign-in") { stored in
            var record: StoredSession
            if let stored, stored.holdsSession, memory.map({ stored.sequence >= $0.sequence }) ?? true {
                record = stored
            } else if let memory {
                record = memory
            } else {
                record = .pendingOAuth(verifier: pending.verifier)
            }
            record.pkceVerifier = pending.verifier
            record.oauthState = pending.state
            record.oauthStartedAt = pending.startedAt
            return record
        }
        switch update {
        case .unreadable(let error):
            logger.error("The store could not be read to start an OAuth sign-in", metadata: ["reason": "\(error)"])
            throw SessionError.storeUnavailable.with(underlying: error.reason)
        case .unwritable(let error):
            logger.error("The OAuth verifier could not be saved; not starting the sign-in", metadata: ["reason": "\(error)"])
            throw SessionError.persistenceFailed.with(
                message: "The sign-in could not be prepared on this device. Please try again.", underlying: error.reason)
        case .unchanged:
            // The change always writes; kept for the type's sake.
            throw SessionError.persistenceFailed.with(message: "The sign-in could not be prepared on this device. Please try again.")
        case .saved(let record):
            if record.holdsSession, let current, record.refreshToken != current.refreshToken {
                // The store was ahead of memory (another process refreshed): what was written is now ours.
                adopt(record)
            } else {
                noteWritten(record)
            }
            // The unsaved session (if any) was the one written.
            if record.holdsSession, record.refreshToken == pendingWrite?.refreshToken { pendingWrite = nil }
        }
        pendingOAuth = pending
    }

    /// The sign-in in progress, from memory or (after the app was killed) the
    /// store, read through the store access like every other read.
    func pendingOAuthSignIn() async throws(SessionError) -> PendingOAuth? {
        if let pendingOAuth { return pendingOAuth }
        switch await guardedLoad() {
        case .success(let record):
            return PendingOAuth(record)
        case .failure(let error):
            throw SessionError.storeUnavailable.with(underlying: error.reason)
        }
    }

    /// The store's record, read inside this client's store access (``withStoreAccess(_:)``).
    func guardedLoad() async -> Result<StoredSession?, SessionStoreError> {
        await withStoreAccess {
            do throws(SessionStoreError) {
                return .success(try await store.load())
            } catch {
                return .failure(error)
            }
        }
    }
}
