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

    /// The session, when signed in (online or offline).
    public var session: Session? {
        switch self {
        case .signedIn(let session), .offline(let session): session
        default: nil
        }
    }

    /// True when signed in (online or offline).
    public var isSignedIn: Bool { session != nil }
}
