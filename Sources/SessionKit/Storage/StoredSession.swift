import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// The one record a ``SessionStore`` keeps: tokens, expiry and user together,
/// so they can never drift apart.
///
/// `sequence` orders the writes to a store shared by several processes: every
/// write takes the store's lock, re-reads, and writes one more than it found,
/// so a process can tell a newer record from an older one and never pushes
/// the store back (docs/PROTOCOL.md, "Store records").
public struct StoredSession: Sendable, Hashable, Codable {
    /// The record format this build writes and reads.
    public static let currentVersion = 1

    /// Format version; a newer version than ``currentVersion`` is refused, not overwritten.
    public var version: Int
    public var accessToken: String
    public var refreshToken: String
    public var tokenType: String
    /// Access token expiry in server time; `nil` when unknown (then the JWT `exp` is read).
    public var expiresAt: Date?
    /// Access token lifetime in seconds, when known.
    public var lifetime: TimeInterval?
    public var user: SessionUser?
    /// A PKCE code verifier waiting for an OAuth callback, if one is in progress.
    public var pkceVerifier: String?
    /// The `state` a token-style OAuth callback must carry, for the sign-in in progress.
    public var oauthState: String?
    /// When the OAuth sign-in in progress started (local time); a callback long after it is refused.
    public var oauthStartedAt: Date?
    /// The write's place in the store's history: one more than the record it replaced (0 in records of older builds).
    public var sequence: UInt64
    /// The server's clock minus this device's when the record was written, if
    /// known: a new process starts from it instead of trusting a device clock
    /// that may be days off.
    public var serverClockOffset: TimeInterval?
    /// The device marker of the device that wrote this record, when its store
    /// lets records move to other devices (a Keychain class without
    /// `ThisDeviceOnly`): a record restored onto another device is told apart
    /// by it and never presented there (docs/PROTOCOL.md, "A device restored
    /// from a backup"). The store sets it on save and removes it on load, so
    /// clients compare records without it.
    var deviceMarker: String?

    public init(
        version: Int = StoredSession.currentVersion, accessToken: String, refreshToken: String,
        tokenType: String = "bearer", expiresAt: Date?, lifetime: TimeInterval? = nil, user: SessionUser? = nil,
        pkceVerifier: String? = nil, oauthState: String? = nil, oauthStartedAt: Date? = nil, sequence: UInt64 = 0
    ) {
        self.version = version
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.lifetime = lifetime
        self.user = user
        self.pkceVerifier = pkceVerifier
        self.oauthState = oauthState
        self.oauthStartedAt = oauthStartedAt
        self.sequence = sequence
        self.serverClockOffset = nil
        self.deviceMarker = nil
    }

    /// The record for `session`.
    public init(_ session: Session, pkceVerifier: String? = nil, sequence: UInt64 = 0) {
        self.init(
            accessToken: session.accessToken, refreshToken: session.refreshToken, tokenType: session.tokenType,
            expiresAt: session.expiresAt, lifetime: session.lifetime, user: session.user, pkceVerifier: pkceVerifier,
            sequence: sequence)
    }

    /// A record holding only an OAuth sign-in in progress: no session yet,
    /// just the verifier, so the flow survives the app being killed while the browser is open.
    public static func pendingOAuth(verifier: String, state: String? = nil, startedAt: Date? = nil) -> StoredSession {
        StoredSession(
            accessToken: "", refreshToken: "", expiresAt: nil, pkceVerifier: verifier, oauthState: state,
            oauthStartedAt: startedAt)
    }

    /// The record a sign-out leaves: no session, only the sequence.
    ///
    /// Deleting the record would lose the sequence, and a process that has
    /// seen more would then misread the next sign-in as older than the session
    /// it ended — and delete it (docs/PROTOCOL.md, "What the model found", 4).
    public static func signedOut(sequence: UInt64) -> StoredSession {
        StoredSession(accessToken: "", refreshToken: "", expiresAt: nil, sequence: sequence)
    }

    /// A copy with the OAuth sign-in in progress carried over from `other`.
    func carryingOAuth(of other: StoredSession?) -> StoredSession {
        var copy = self
        copy.pkceVerifier = other?.pkceVerifier
        copy.oauthState = other?.oauthState
        copy.oauthStartedAt = other?.oauthStartedAt
        return copy
    }

    /// False for a record that holds only a pending OAuth verifier, or only a sign-out's sequence.
    public var holdsSession: Bool { !accessToken.isEmpty && !refreshToken.isEmpty }

    /// The format version of an encoded record, read before anything else:
    /// a newer SDK's record may not decode as this one's, and must then be
    /// reported as newer, never taken for damage and moved aside.
    ///
    /// - Returns: `nil` when `data` is not a JSON object with an integer `version`.
    public static func formatVersion(of data: Data) -> Int? {
        struct Header: Decodable { let version: Int }
        do {
            return try JSONDecoder().decode(Header.self, from: data).version
        } catch {
            // Not a record at all: the caller's full decode reports the damage.
            return nil
        }
    }

    enum CodingKeys: String, CodingKey {
        case version, user
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case expiresAt = "expires_at"
        case lifetime = "expires_in"
        case pkceVerifier = "pkce_verifier"
        case oauthState = "oauth_state"
        case oauthStartedAt = "oauth_started_at"
        case sequence
        case serverClockOffset = "server_clock_offset"
        case deviceMarker = "device_marker"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        accessToken = try c.decode(String.self, forKey: .accessToken)
        refreshToken = try c.decode(String.self, forKey: .refreshToken)
        tokenType = try c.decodeIfPresent(String.self, forKey: .tokenType) ?? "bearer"
        expiresAt = try c.decodeIfPresent(Date.self, forKey: .expiresAt)
        lifetime = try c.decodeIfPresent(TimeInterval.self, forKey: .lifetime)
        user = try c.decodeIfPresent(SessionUser.self, forKey: .user)
        pkceVerifier = try c.decodeIfPresent(String.self, forKey: .pkceVerifier)
        oauthState = try c.decodeIfPresent(String.self, forKey: .oauthState)
        oauthStartedAt = try c.decodeIfPresent(Date.self, forKey: .oauthStartedAt)
        // Records written before sequences existed read as 0: any sequenced write is newer.
        sequence = try c.decodeIfPresent(UInt64.self, forKey: .sequence) ?? 0
        serverClockOffset = try c.decodeIfPresent(TimeInterval.self, forKey: .serverClockOffset).flatMap { $0.isFinite ? $0 : nil }
        deviceMarker = try c.decodeIfPresent(String.self, forKey: .deviceMarker)
    }

    /// The session this record holds.
    ///
    /// The expiry comes from the record, else from the access token's `exp`
    /// claim; if neither is known the token is treated as already expired
    /// (`distantPast`), so it is refreshed before use, never trusted.
    public var session: Session {
        var lifetime = self.lifetime
        let expiresAt: Date
        if let recorded = self.expiresAt {
            expiresAt = recorded
        } else if let claims = Self.claims(of: accessToken), let exp = claims.exp {
            expiresAt = exp
            if lifetime == nil, let iat = claims.iat, exp > iat { lifetime = exp.timeIntervalSince(iat) }
        } else {
            expiresAt = .distantPast
        }
        return Session(
            accessToken: accessToken, refreshToken: refreshToken, tokenType: tokenType, expiresAt: expiresAt,
            lifetime: lifetime, user: user)
    }

    private static func claims(of token: String) -> JWTClaims? {
        do {
            return try UnverifiedJWT(token).claims
        } catch {
            // Not a readable JWT: the caller treats the expiry as unknown (expired).
            return nil
        }
    }
}
