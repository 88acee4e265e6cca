import Foundation
import Logging
import SessionCore

/// Moves a session the app kept itself (a JSON blob in `UserDefaults`) into
/// a ``SessionClient``, once, losing nothing if the app dies halfway.
///
/// The order is what makes it safe: the blob is removed only after the
/// imported session has been read back from the client's store. If the app
/// dies in between, both are there at the next launch; the migration then
/// finds the store holding a session and only removes the blob — it never
/// imports it again, because an imported session may have been refreshed,
/// which spent the blob's refresh token.
///
/// Run it before ``SessionClient/restore()``, so the state stays
/// `restoring` (no sign-in screen) until it is done:
///
/// ```swift
/// let migration = LegacySessionMigration(key: "supabase_session")
/// _ = await migration.run(on: client)
/// try await client.restore()
/// ```
///
/// - Important: Run it in the app only, not in its extensions: two processes
///   importing the same blob at once would both refresh its token.
public struct LegacySessionMigration: Sendable {
    /// What a run did.
    public enum Outcome: Sendable, Hashable {
        /// There was no blob (a new install, or already migrated).
        case nothingToMigrate
        /// The blob's session is now the client's, saved; the blob was removed.
        case imported(Session)
        /// The client's store already held a session (an earlier run imported
        /// the blob and the app died before removing it); the blob was removed.
        case alreadyMigrated
        /// The blob can never be used (unreadable, malformed tokens, or the
        /// server ended that session); it was removed. Show the sign-in screen.
        case discarded(SessionError)
        /// It could not finish now (the store unreadable, the session not saved
        /// yet); the blob was kept and the next run tries again. The client may
        /// already be signed in meanwhile.
        case postponed(SessionError)
    }

    /// Where the blob is.
    public let legacyStore: any LegacyKeyValueSource
    /// The blob's key.
    public let key: String
    let logger: Logger

    /// - Parameters:
    ///   - legacyStore: where the app kept the blob (default: `UserDefaults.standard`).
    ///   - key: the blob's key (default `"supabase_session"`).
    ///   - logger: where the migration says what it did (never a token).
    public init(
        legacyStore: any LegacyKeyValueSource = UserDefaultsLegacySource(), key: String = "supabase_session",
        logger: Logger = Logger(label: "SessionKit.migration")
    ) {
        self.legacyStore = legacyStore
        self.key = key
        self.logger = logger
    }

    /// Imports the blob into `client` if there is one, then removes it.
    public func run(on client: SessionClient) async -> Outcome {
        guard let data = legacyStore.data(forKey: key) else { return .nothingToMigrate }
        let store = client.configuration.store
        switch await storedSession(in: store) {
        case .some(true):
            // Imported by an earlier run that died before removing the blob.
            logger.info("The session was already migrated; removing the old copy")
            legacyStore.removeValue(forKey: key)
            return .alreadyMigrated
        case .some(false):
            break
        case .none:
            return .postponed(
                SessionError.storeUnavailable.with(underlying: "the store could not be read before migrating"))
        }

        let legacy: LegacySession
        do {
            legacy = try LegacySession.parse(data)
        } catch {
            logger.notice("The old session could not be read; removing it", metadata: ["reason": "\(error.underlying ?? error.message)"])
            legacyStore.removeValue(forKey: key)
            return .discarded(error)
        }

        let session: Session
        do {
            session = try await client.importSession(
                accessToken: legacy.accessToken, refreshToken: legacy.refreshToken, expiresAt: legacy.expiresAt,
                user: legacy.user)
        } catch where error == .sessionExpired || error == .accountSuspended || error == .invalidRequest {
            // The server (or the tokens' own shape) says these can never be used.
            logger.notice("The old session cannot be used; removing it", metadata: ["reason": "\(error.message)"])
            legacyStore.removeValue(forKey: key)
            return .discarded(error)
        } catch {
            logger.warning("The old session could not be imported now; keeping it for the next launch", metadata: ["reason": "\(error.message)"])
            return .postponed(error)
        }

        // Removed only once the store is seen to hold the imported session.
        guard await store.holds(refreshToken: session.refreshToken) else {
            logger.warning("The imported session is not saved yet; keeping the old copy for the next launch")
            return .postponed(SessionError.persistenceFailed)
        }
        legacyStore.removeValue(forKey: key)
        logger.info("Migrated the old session", metadata: ["user": "\(session.user?.id ?? "-")"])
        return .imported(session)
    }

    /// Whether the store holds a session: `nil` when it cannot be read now.
    ///
    /// A corrupt record counts as none (the store moved it aside): the blob is then the only copy left.
    private func storedSession(in store: any SessionStore) async -> Bool? {
        do {
            return try await store.load()?.holdsSession == true
        } catch where error.isCorrupt {
            return false
        } catch {
            logger.notice("The session store could not be read before migrating", metadata: ["reason": "\(error)"])
            return nil
        }
    }
}

extension SessionStore {
    /// True when the stored record holds the session with `refreshToken`.
    fileprivate func holds(refreshToken: String) async -> Bool {
        do {
            return try await load()?.refreshToken == refreshToken
        } catch {
            // Unreadable right now: not proven saved, so the old copy stays.
            return false
        }
    }
}
