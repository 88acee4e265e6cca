import Foundation
import Logging

/// Moves the session supabase-swift's `Auth` kept into a ``SessionClient``,
/// so an app that replaces supabase-swift's auth with SessionKit keeps every
/// signed-in person signed in.
///
/// It is ``LegacySessionMigration`` run over supabase-swift's Keychain items
/// (``SupabaseSwiftKeychainSource``) at each storage key supabase-swift has
/// used, newest first:
/// - the app's own `storageKey`, else `sb-<project ref>-auth-token` (what
///   `SupabaseClient` uses: the first label of the project's host);
/// - `supabase.auth.token` (`AuthClient`'s default without `SupabaseClient`);
/// - `supabase.session` (its oldest key).
///
/// Each value is read in every encoding supabase-swift wrote: the `Session`
/// through a plain `JSONEncoder` (camelCase, dates as seconds since 2001: its
/// current form), through its snake_case encoder (ISO-8601 dates), and the
/// older `{"session": …, "expiration_date": …}` wrapper. The same care as for
/// a hand-rolled blob applies: an item is removed only after the imported
/// session is read back from the client's store; an unreadable one is kept
/// (`unrecognised`), a Keychain that cannot be read now postpones; a store
/// holding a session or a sign-out's record means "already migrated", so a
/// signed-out person is never signed back in; and a sign-out removes the items.
///
/// ```swift
/// let migration = SupabaseSwiftMigration(
///     source: .device(accessGroup: nil), supabaseURL: URL(string: "https://abcd.supabase.co")!)
/// _ = await migration.run(on: client)
/// try await client.restore()
/// ```
///
/// - Important: Run it in the app only, before ``SessionClient/restore()``,
///   and stop using supabase-swift's `auth` in the same release: two clients
///   refreshing one refresh token end the session.
public struct SupabaseSwiftMigration: Sendable {
    /// Where supabase-swift's items are.
    public let source: SupabaseSwiftKeychainSource
    /// The storage keys looked at, in order.
    public let keys: [String]
    let logger: Logger

    /// - Parameters:
    ///   - source: supabase-swift's Keychain items (`.device(accessGroup:)` in an app, on Apple platforms).
    ///   - supabaseURL: the project URL the app gave `SupabaseClient`, for its default storage key.
    ///   - storageKey: the `storageKey` the app gave supabase-swift, if it gave one.
    ///   - logger: where the migration says what it did (never a token).
    public init(
        source: SupabaseSwiftKeychainSource, supabaseURL: URL?, storageKey: String? = nil,
        logger: Logger = Logger(label: "SessionKit.migration")
    ) {
        self.source = source
        self.keys = Self.storageKeys(supabaseURL: supabaseURL, storageKey: storageKey)
        self.logger = logger
    }

    /// The keys supabase-swift may have stored the session under, newest first.
    public static func storageKeys(supabaseURL: URL?, storageKey: String? = nil) -> [String] {
        var keys: [String] = []
        if let storageKey, !storageKey.isEmpty { keys.append(storageKey) }
        // supabase-swift's SupabaseClient: "sb-" + the host's first label + "-auth-token".
        if let host = supabaseURL?.host, let ref = host.split(separator: ".").first {
            keys.append("sb-\(ref)-auth-token")
        }
        for key in ["supabase.auth.token", "supabase.session"] where !keys.contains(key) {
            keys.append(key)
        }
        return keys
    }

    /// Imports the newest session found, then removes it and any older copy.
    ///
    /// - Returns: the outcome at the first key that held a value (``LegacySessionMigration/Outcome/nothingToMigrate``
    ///   when none did). After an import, older keys are only removed, never imported.
    public func run(on client: SessionClient) async -> LegacySessionMigration.Outcome {
        var result = LegacySessionMigration.Outcome.nothingToMigrate
        for key in keys {
            let outcome = await LegacySessionMigration(legacyStore: source, key: key, logger: logger).run(on: client)
            switch outcome {
            case .nothingToMigrate:
                continue
            case .imported, .alreadyMigrated:
                // Older keys may hold an older copy: the store now holds a session,
                // so their runs only remove them.
                if result == .nothingToMigrate { result = outcome }
            case .discarded, .unrecognised, .postponed:
                // Stop: an older copy's refresh token may be an ancestor of this one's,
                // and sending it could end the person's session on the server.
                return result == .nothingToMigrate ? outcome : result
            }
        }
        return result
    }
}
