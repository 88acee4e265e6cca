import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// The error codes with which a backend says a session is over.
///
/// A refused refresh ends the session only when its body carries one of
/// these codes (GoTrue's `error_code` or `code`, the gateway's `error.code`,
/// or OAuth's `error`). Every other refusal — a proxy's HTML 401, an API
/// gateway's `{"message":"Invalid API key"}`, an unknown 4xx — keeps the
/// session and its refresh token and is retried with backoff: only the auth
/// server itself can end a session (docs/PROTOCOL.md, "Refresh outcomes").
///
/// ```swift
/// // A backend that answers OAuth's `invalid_grant` for a dead refresh token:
/// let backend = CustomBackend(refreshURL: refresh, meURL: me,
///                             sessionEndingCodes: .goTrue.adding(ended: ["invalid_grant"]))
/// ```
public struct SessionEndingCodes: Sendable, Hashable {
    /// Codes that end the session: the person must sign in again.
    public var ended: Set<String>
    /// Codes that end it because the account was suspended (shown with their own message).
    public var banned: Set<String>
    /// Codes that mean "this refresh token was already rotated": the client
    /// re-reads its store first (another process may have refreshed) and ends
    /// the session only if nothing newer is there.
    public var alreadyUsed: Set<String>
    /// OAuth `invalid_grant` refusals told apart only by their exact
    /// `error_description`, read as ``ended``: GoTrue before v2.164 sent no
    /// code, only `"Invalid Refresh Token: Refresh Token Not Found"`.
    public var endedDescriptions: Set<String>
    /// The same for ``alreadyUsed``: `"Invalid Refresh Token: Already Used"`.
    public var alreadyUsedDescriptions: Set<String>

    public init(
        ended: Set<String>, banned: Set<String> = [], alreadyUsed: Set<String> = [],
        endedDescriptions: Set<String> = [], alreadyUsedDescriptions: Set<String> = []
    ) {
        self.ended = ended
        self.banned = banned
        self.alreadyUsed = alreadyUsed
        self.endedDescriptions = endedDescriptions
        self.alreadyUsedDescriptions = alreadyUsedDescriptions
    }

    /// GoTrue's (Supabase Auth's) ends, and the `auth-server` gateway's `SESSION_EXPIRED`.
    public static let goTrue = SessionEndingCodes(
        ended: [
            GoTrueErrorCode.refreshTokenNotFound.rawValue, GoTrueErrorCode.sessionNotFound.rawValue,
            GoTrueErrorCode.sessionExpired.rawValue, GoTrueErrorCode.userNotFound.rawValue,
            GatewayErrorCode.sessionExpired.rawValue,
        ],
        banned: [GoTrueErrorCode.userBanned.rawValue],
        alreadyUsed: [GoTrueErrorCode.refreshTokenAlreadyUsed.rawValue],
        // GoTrue before v2.164 (no `error_code`): these two exact texts are its
        // own verdicts, which no proxy writes (docs/PROTOCOL.md, "Old GoTrue").
        endedDescriptions: [Self.legacyNotFound], alreadyUsedDescriptions: [Self.legacyAlreadyUsed])

    /// Old GoTrue's `error_description` for a refresh token it does not hold (ended, deleted, expired).
    public static let legacyNotFound = "Invalid Refresh Token: Refresh Token Not Found"
    /// Old GoTrue's `error_description` for a rotated-out refresh token presented again.
    public static let legacyAlreadyUsed = "Invalid Refresh Token: Already Used"

    /// A copy that also treats these codes as ends.
    public func adding(ended more: Set<String> = [], banned moreBanned: Set<String> = [], alreadyUsed moreUsed: Set<String> = [])
        -> SessionEndingCodes
    {
        SessionEndingCodes(
            ended: ended.union(more), banned: banned.union(moreBanned), alreadyUsed: alreadyUsed.union(moreUsed),
            endedDescriptions: endedDescriptions, alreadyUsedDescriptions: alreadyUsedDescriptions)
    }

    /// What `body` says about the session, if anything.
    func reading(_ body: ServerErrorBody?) -> Reading? {
        guard let body else { return nil }
        let codes = [body.gatewayCode?.rawValue, body.goTrueErrorCode?.rawValue].compactMap { $0 }
        // A refused DPoP proof is the proof's matter, never the session's, whatever a list says (docs/DPOP.md).
        if codes.contains(where: DPoPWire.proofCodes.contains) { return nil }
        if codes.contains(where: alreadyUsed.contains) { return .alreadyUsed }
        if codes.contains(where: banned.contains) { return .banned }
        if codes.contains(where: ended.contains) { return .ended }
        // Only OAuth's code-less shape, and only the exact text: anything else stays a refusal.
        guard body.goTrueErrorCode == .invalidGrant, body.gatewayCode == nil else { return nil }
        if alreadyUsedDescriptions.contains(body.message) { return .alreadyUsed }
        if endedDescriptions.contains(body.message) { return .ended }
        return nil
    }

    enum Reading: Sendable, Hashable {
        case ended, banned, alreadyUsed
    }
}
