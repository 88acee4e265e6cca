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
        /// The client's store already holds a session, or the sign-out record
        /// of one (an earlier run imported the blob, or the person signed in
        /// and out since); the blob was removed, never imported over it.
        case alreadyMigrated
        /// The server ended that session (or suspended the account): it can
        /// never be used; the blob was removed. Show the sign-in screen.
        case discarded(SessionError)
        /// The blob is of a shape this version cannot read (the error's
        /// `underlying` says what was missing); it was kept, so a later
        /// release that reads it can still bring the session back. Show the
        /// sign-in screen; a sign-out removes the blob.
        case unrecognised(SessionError)
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
        let found: Data?
        do {
            found = try await legacyStore.readValue(forKey: key)
        } catch {
            // Unreadable now (a locked device's Keychain) is not "nothing there": try again next launch.
            logger.notice("The old session could not be read now; keeping it for the next launch", metadata: ["reason": "\(error.underlying ?? error.message)"])
            return .postponed(error)
        }
        guard let data = found else { return .nothingToMigrate }
        // Whatever happens now, a sign-out through this client removes the blob too.
        await client.rememberLegacySession(LegacySessionLocation(source: legacyStore, key: key))
        let store = client.configuration.store
        switch await storedRecord(in: store) {
        case .session, .signedOut:
            // Imported by an earlier run that died before removing the blob, or
            // the person signed in (and maybe out) since: the blob must never
            // sign anyone back in.
            logger.info("The session was already migrated; removing the old copy")
            legacyStore.removeValue(forKey: key)
            return .alreadyMigrated
        case .empty:
            break
        case .unreadable:
            return .postponed(
                SessionError.storeUnavailable.with(underlying: "the store could not be read before migrating"))
        }

        let legacy: LegacySession
        do {
            legacy = try LegacySession.parse(data)
        } catch {
            logger.notice("The old session is of a shape this version cannot read; keeping it", metadata: ["reason": "\(error.underlying ?? error.message)"])
            return .unrecognised(error)
        }

        let session: Session
        do {
            session = try await client.importSession(
                accessToken: legacy.accessToken, refreshToken: legacy.refreshToken, expiresAt: legacy.expiresAt,
                user: legacy.user)
        } catch where error == .sessionExpired || error == .accountSuspended {
            // The server's own verdict: these tokens can never be used.
            logger.notice("The server ended the old session; removing it", metadata: ["reason": "\(error.message)"])
            legacyStore.removeValue(forKey: key)
            return .discarded(error)
        } catch where error == .invalidRequest {
            // Tokens of a shape we refuse (spaces, too long): maybe misread, never sent; kept.
            logger.notice("The old session's tokens could not be read; keeping it", metadata: ["reason": "\(error.message)"])
            return .unrecognised(error)
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

    private enum StoredRecord {
        case empty, session, signedOut, unreadable
    }

    /// What the store holds.
    ///
    /// A corrupt record counts as none (the store moved it aside): the blob is
    /// then the only copy left. A sign-out's record (no session, a sequence)
    /// says SessionKit has run here since the blob was written. A record that
    /// holds only an OAuth sign-in in progress is not a session: the blob may
    /// still be the person's only one.
    private func storedRecord(in store: any SessionStore) async -> StoredRecord {
        do {
            guard let record = try await store.load() else { return .empty }
            if record.holdsSession { return .session }
            return record.pkceVerifier == nil && record.sequence > 0 ? .signedOut : .empty
        } catch where error.isCorrupt {
            return .empty
        } catch {
            logger.notice("The session store could not be read before migrating", metadata: ["reason": "\(error)"])
            return .unreadable
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
