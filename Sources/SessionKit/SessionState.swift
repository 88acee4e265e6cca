import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where the person stands, as ``SessionClient/states`` publishes it.
public enum SessionState: Sendable, Hashable {
    /// No session: show sign-in.
    case signedOut
    /// `restore()` is reading and validating the stored session.
    case restoring
    /// Signed in with a usable session.
    case signedIn(Session)
    /// Signed in, but the server cannot be reached right now; the session is kept.
    case offline(Session)
    /// The server ended the session; `reason` is the message to show once.
    case expired(reason: String)
    /// Signed in, but refreshes have been refused for a while by something
    /// that is not the auth server's verdict (a gateway's 401, a
    /// misconfigured key): the session is kept and still retried. Show
    /// "can't reach your account right now", not the sign-in screen; the
    /// person may sign out and in again. `reason` says what answered.
    case needsAttention(Session, reason: SessionError)
    /// A session is stored behind Face ID or Touch ID and the check did not pass
    /// (cancelled, failed, due in the background, or biometrics changed). Nobody is
    /// signed out: show an "Unlock" screen; ``SessionClient/restore()`` asks again
    /// and continues the session. With ``BiometricLockReason/biometryChanged`` the
    /// person signs in again (docs/PROTOCOL.md, "The biometric gate").
    case locked(BiometricLockReason)

    /// The session, when signed in (online or offline).
    public var session: Session? {
        switch self {
        case .signedIn(let session), .offline(let session), .needsAttention(let session, _): session
        default: nil
        }
    }

    /// True when signed in (online, offline or needing attention).
    public var isSignedIn: Bool { session != nil }
}
