import Foundation
import Logging
import SessionCore

/// The engine's part of an import (``SessionImport``): tokens the server
/// has not vouched for are refreshed once, under the store's lock, and
/// kept or refused as a refresh's answer says (docs/PROTOCOL.md, "Refresh outcomes").
extension SessionClient {
    /// Refreshes the imported session once, under the store's lock (bounded,
    /// as a refresh's), after a re-read: another client on the same store (a
    /// second window's, an extension's) may have imported it, or signed in, meanwhile.
    func establishImported(_ session: Session) async throws(SessionError) -> Session {
        // Held while the lock is, as a refresh: a suspended app must not sit on the lock.
        let activity = configuration.backgroundActivity.begin("SessionKit import")
        let lock = await takeLock(for: "import")
        let result: Result<Session, SessionError>
        do {
            result = .success(try await refreshImportedLocked(session, holding: lock))
        } catch {
            result = .failure(error)
        }
        await lock?.unlock()
        activity.end()
        return try result.get()
    }

    /// The store's session, if it holds one now.
    private func storedSessionForImport() async -> StoredSession? {
        switch await guardedLoad() {
        case .success(let stored):
            return stored?.holdsSession == true ? stored : nil
        case .failure(let error):
            // Unreadable now: nothing to adopt; the import goes on as it would have.
            logger.notice("The store could not be re-read before an import's refresh", metadata: ["reason": "\(error)"])
            return nil
        }
    }

    private func refreshImportedLocked(_ session: Session, holding lock: HeldStoreLock?) async throws(SessionError) -> Session {
        // Only a session this client has not seen is news: importing over our own session replaces it.
        if let stored = await storedSessionForImport(), current.map({ isNewer(stored, than: $0) }) ?? true {
            logger.info("Another client saved a session meanwhile; adopting it instead of refreshing the imported one")
            generation += 1
            hasRestored = true
            return adopt(stored)
        }
        let outcome = await sendRefresh(refreshToken: session.refreshToken)
        switch outcome {
        case .success(let response):
            var refreshed = Session(response: response, serverNow: serverNow)
            if refreshed.user == nil { refreshed.user = session.user }
            // The imported refresh token is spent: the new tokens exist only here now.
            try await establish(refreshed, keepingUnsaved: true, holding: lock)
            logger.info("Imported the session with a refresh", metadata: ["refresh_token": "\(TokenRedaction.fingerprint(refreshed.refreshToken))"])
            return current ?? refreshed
        case .terminal(let error), .alreadyUsed(let error):
            // Rule B: the server's own verdict, these tokens are over. Nothing was stored.
            logger.notice("The server refused the imported session; nothing was stored", metadata: ["reason": "\(error)"])
            throw error
        case .transient(let error), .refused(let error):
            logger.notice("The imported session could not be refreshed now; keeping it and retrying", metadata: ["reason": "\(error)"])
            try await establish(session, keepingUnsaved: false, holding: lock)
            // `establish` scheduled a refresh for now; the failure just seen replaces it
            // with a backoff. A new generation drops that timer even if it already woke.
            generation += 1
            // The refresh failure path, as for any refresh of this session.
            _ = refreshFailed(outcome, error: error, session: session)
            return current ?? session
        }
    }
}
