import Foundation
import SessionCore

/// Adopting a session the app already holds, as supabase-swift's `setSession`:
/// for apps that kept their own tokens before SessionKit (a UserDefaults
/// blob, say; ``LegacySessionMigration`` is the recipe).
extension SessionClient {
    /// Validates tokens the app already holds and makes them this client's
    /// session, saved (verified) in the store.
    ///
    /// - An access token that has not expired is confirmed with the server
    ///   (the user endpoint, with that token). If the server rejects it, or
    ///   its expiry is unknown (an opaque token and no `expiresAt`) or past,
    ///   the refresh token is used once; its answer decides.
    /// - A refresh the server refuses for good (the refresh token ended,
    ///   reused, the account suspended) throws that typed error, and nothing
    ///   is stored: the client's own session, if any, is left as it was.
    /// - When the server cannot be asked right now (offline, 5xx, something
    ///   in between refusing), the imported tokens are kept, saved, and the
    ///   state is `offline` (or `signedIn` when the access token is still
    ///   valid): importing never signs anyone out. The refresh is retried
    ///   with backoff.
    ///
    /// When the refresh succeeded the imported refresh token is spent, so if
    /// the new session then cannot be saved it is kept in memory and saving
    /// is retried (a ``SessionEvent/persistenceFailed(_:)`` event), as for an
    /// OAuth callback. Otherwise a failed save throws
    /// ``SessionError/persistenceFailed`` with nothing changed.
    ///
    /// - Parameters:
    ///   - accessToken: the access token the app holds.
    ///   - refreshToken: its refresh token.
    ///   - expiresAt: when the access token expires, if the app kept it
    ///     (`nil`: unknown). A JWT's own `exp` wins over it.
    ///   - user: the person, if the app kept them; the server's answer replaces it.
    /// - Returns: the session now in place.
    /// The import is one flight: a second import of the same refresh token
    /// while one runs (several windows running the migration at launch) joins
    /// it, and it runs in a task of its own, so a cancelled caller (a SwiftUI
    /// `.task` torn down) cannot cancel a refresh the server has already
    /// committed. Its refresh runs under the store's lock, after a re-read: a
    /// session another process saved meanwhile is adopted instead.
    ///
    /// - Throws: ``SessionError/invalidRequest`` (malformed tokens; the message
    ///   names which), ``SessionError/sessionExpired``, ``SessionError/accountSuspended``,
    ///   or ``SessionError/persistenceFailed``.
    @discardableResult
    public func importSession(
        accessToken: String, refreshToken: String, expiresAt: Date?, user: SessionUser? = nil
    ) async throws(SessionError) -> Session {
        try await SessionImport(accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt, user: user).run(on: self)
    }

    /// Signs in with tokens your own backend obtained, as supabase-swift's
    /// `setSession` does: the lifetime is `expiresIn` seconds from now, or,
    /// without it, the access token's own `exp`.
    ///
    /// Everything else is ``importSession(accessToken:refreshToken:expiresAt:user:)``:
    /// the session is confirmed with the server, or refreshed, before it is kept.
    ///
    /// - Parameters:
    ///   - accessToken: the access token.
    ///   - refreshToken: its refresh token.
    ///   - expiresIn: seconds the access token is valid from now (a token
    ///     response's `expires_in`); `nil` reads the JWT's `exp`.
    ///   - user: the person, if known.
    @discardableResult
    public func importSession(
        accessToken: String, refreshToken: String, expiresIn: TimeInterval? = nil, user: SessionUser? = nil
    ) async throws(SessionError) -> Session {
        // In the server's time, as every stored expiry is: the device clock may be off.
        try await importSession(accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresIn.map { serverNow.addingTimeInterval($0) }, user: user)
    }
}
