import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// Something that happened to the session, as ``SessionClient/events`` publishes it.
public enum SessionEvent: Sendable, Hashable {
    /// The first event of every ``SessionClient/events`` stream, once the
    /// launch read has ended: the session the person has (`nil` when signed
    /// out or expired). Like supabase-swift's `initialSession`, so an app that
    /// routes on events learns at launch that it is signed in. A session
    /// whose access token expired while the app was closed is reported here
    /// and refreshed behind it (``SessionClient/accessToken()`` waits).
    case initialSession(Session?)
    /// A person signed in (or signed up with an immediate session).
    case signedIn(Session)
    /// A refresh succeeded and the new session was saved (or is being saved; see `persistenceFailed`).
    case tokenRefreshed(Session)
    /// A refresh failed; with `willRetry` the session is kept and retried with backoff.
    case refreshFailed(SessionError, willRetry: Bool)
    /// The server ended the session. Published exactly once per session; show `message`.
    case sessionExpired(message: String)
    /// The session ended locally (sign-out, account deletion, or another process signed out).
    case signedOut
    /// Saving the session failed; the session is kept in memory and saving is retried.
    case persistenceFailed(SessionError)
    /// The server became unreachable; the session is kept.
    case offline
    /// The server answered again after being unreachable.
    case online
    /// Another process refreshed the shared store; this client adopted its session.
    case adoptedStoredSession(Session)
    /// The server described the signed-in person anew (``SessionClient/me()``,
    /// ``SessionClient/updateProfile(_:)``, a provider sign-in's confirmation):
    /// the session's user is this one now, saved, and the state carries it.
    case userUpdated(SessionUser)
}
