import Foundation
import SessionCore

/// A user row, with the outside accounts linked to it.
public struct UserRecord: Sendable, Hashable {
    public var id: String
    /// `nil` for a user who signed up with a provider that gives no email (Strava).
    public var email: String?
    /// Empty for a user who has never set a password (signed up with a provider).
    var passwordHash: String
    public var userMetadata: [String: JSONValue]
    public var createdAt: Date
    public var updatedAt: Date
    public var lastSignInAt: Date?
    public var emailConfirmedAt: Date?
    /// Linked provider accounts, oldest first.
    public var identities: [IdentityRecord] = []
    /// Until when sign-in and refresh are refused; `nil` when not banned.
    public var bannedUntil: Date? = nil
    /// What operators set through the admin API (roles, plans); never the user.
    public var appMetadata: [String: JSONValue] = [:]
    /// Second factors, oldest first (docs/MFA.md); never their secrets.
    public var factors: [UserFactor] = []
    /// Signed in with neither email nor phone (GoTrue's `is_anonymous`; docs/ACCOUNTS.md).
    public var isAnonymous = false
    /// The address a pending email change waits to confirm (GoTrue's `email_change`,
    /// `new_email` on the wire; docs/ACCOUNTS.md), and when its codes were mailed.
    public var pendingEmail: String? = nil
    public var emailChangeSentAt: Date? = nil

    /// True when the account is banned at `now`.
    public func isBanned(at now: Date) -> Bool { bannedUntil.map { $0 > now } ?? false }

    /// True when password sign-in can work for this user.
    var hasPassword: Bool { !passwordHash.isEmpty }

    /// The user as GoTrue describes it on the wire.
    public var sessionUser: SessionUser {
        var wireIdentities: [UserIdentity] = []
        if let email, hasPassword {
            wireIdentities.append(
                UserIdentity(
                    id: id, identityId: id, userId: id, provider: "email",
                    identityData: ["sub": .string(id), "email": .string(email), "email_verified": false],
                    createdAt: createdAt, updatedAt: updatedAt, lastSignInAt: lastSignInAt))
        }
        wireIdentities += identities.map(\.userIdentity)
        let providers = wireIdentities.map(\.provider)
        // The operator's keys first; GoTrue's provider keys are the server's to write.
        // An anonymous user has no provider, and GoTrue writes none (internal/api/signup.go, ToUserModel).
        let providerKeys: [String: JSONValue] =
            isAnonymous && providers.isEmpty
            ? [:] : ["provider": .string(providers.first ?? "email"), "providers": .array(providers.map(JSONValue.string))]
        var user = SessionUser(
            id: id, email: email, emailConfirmedAt: emailConfirmedAt, lastSignInAt: lastSignInAt,
            userMetadata: userMetadata, appMetadata: appMetadata.merging(providerKeys) { $1 },
            identities: wireIdentities, isAnonymous: isAnonymous, createdAt: createdAt, updatedAt: updatedAt,
            bannedUntil: bannedUntil, factors: factors.isEmpty ? nil : factors)
        user.newEmail = pendingEmail
        user.emailChangeSentAt = emailChangeSentAt
        return user
    }
}

/// An outside account (provider + the provider's id for it) linked to a user.
public struct IdentityRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var provider: String
    /// The provider's id for the account (Strava's athlete id).
    public var providerID: String
    /// What the provider told about the account; never its tokens.
    public var identityData: [String: JSONValue]
    public var email: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var lastSignInAt: Date?

    var userIdentity: UserIdentity {
        var data = identityData
        data["sub"] = .string(providerID)
        data["provider_id"] = .string(providerID)
        return UserIdentity(
            id: providerID, identityId: id, userId: userID, provider: provider, identityData: data,
            createdAt: createdAt, updatedAt: updatedAt, lastSignInAt: lastSignInAt)
    }
}

/// An OAuth flow in progress: from `/authorize` to the one-time code's exchange.
public struct OAuthFlowRecord: Sendable, Hashable {
    public var id: String
    public var provider: String
    public var redirectTo: String
    public var codeChallenge: String
    public var codeChallengeMethod: String
    public var createdAt: Date
    public var stateExpiresAt: Date
    public var stateUsedAt: Date?
    public var userID: String?
    public var authCodeExpiresAt: Date?
    public var authCodeUsedAt: Date?
    /// Set when `GET /user/identities/authorize` started the flow: the user the
    /// provider identity links to, and the session the code answers for.
    public var linkingUserID: String? = nil
    public var linkingSessionID: String? = nil

    /// True for a link flow: its callback links, its code keeps the session that started it.
    public var isLink: Bool { linkingUserID != nil }
}

/// A session row: one signed-in device, the family of its refresh tokens.
public struct SessionRecord: Sendable, Hashable {
    public var id: String
    public var userID: String
    public var createdAt: Date
    public var refreshedAt: Date?
    /// The absolute end of the session, whatever happens.
    public var notAfter: Date
    public var revokedAt: Date?
    /// `logout`, `reuse`, `password_changed` or `deleted`.
    public var revokedReason: String?
    public var userAgent: String?
    public var ip: String?
    /// Hash of the one refresh token that may rotate next.
    public var activeTokenHash: String?
    /// How the person signed in: `password` or `oauth` (`nil` for sessions older than the column).
    public var authMethod: String? = nil
    /// `aal2` once a second factor was verified in this session (docs/MFA.md); `nil` is `aal1`.
    public var aal: String? = nil
    /// When the second factor was verified: the `totp` entry of the token's `amr`.
    public var mfaVerifiedAt: Date? = nil
    /// The factor verified, so removing it lowers the session back to `aal1`.
    public var factorID: String? = nil
    /// The RFC 7638 thumbprint of the key the session is bound to (docs/DPOP.md); `nil` when unbound.
    public var dpopJKT: String? = nil

    /// The session's authenticator assurance level, as tokens carry it.
    public var assuranceLevel: String { aal ?? "aal1" }

    public var isRevoked: Bool { revokedAt != nil }
}

/// A refresh token row; the token itself is never stored.
public struct RefreshTokenRecord: Sendable, Hashable {
    public var tokenHash: String
    public var sessionID: String
    public var parentHash: String?
    public var createdAt: Date
    public var expiresAt: Date
    public var rotatedAt: Date?
    public var successorHash: String?
    var sealedSuccessor: String?
    /// When successor recovery last handed the successor to this rotated-out
    /// token, and how many times it has (docs/PROTOCOL.md, "Successor recovery").
    var recoveredAt: Date?
    var recoveries = 0
}

/// A stored signing key.
struct StoredSigningKey: Sendable {
    var kid: String
    var privateKeyPEM: String
    var createdAt: Date
}

/// How a refresh request was satisfied.
public enum RefreshOutcome: String, Sendable {
    /// The active token rotated to a new successor.
    case rotated
    /// A rotated-out token came back within the grace: same successor.
    case replayedWithinGrace
    /// The parent of the unused active token came back (the client crashed
    /// before saving): the active token again.
    case recoveredUnsavedSuccessor
}

/// A successful refresh: the refresh token to hand out and whose it is.
public struct RefreshGrant: Sendable {
    public var refreshToken: String
    public var session: SessionRecord
    public var user: UserRecord
    public var outcome: RefreshOutcome
}

/// Lifetimes that rotation applies.
public struct RotationPolicy: Sendable {
    public var refreshTokenTTL: TimeInterval
    public var grace: TimeInterval
    /// See ``AuthServerConfiguration/recoversUnsavedSuccessors``.
    public var recoversUnsavedSuccessors: Bool
    /// How many times one rotated-out token may recover its unused successor
    /// (issue 29, item 12); the next presentation is a reuse. Retries within
    /// the grace of a recovery are the same recovery and not counted.
    public var recoveriesPerRotation = 3
    /// Opens the successors a factor verify sealed (docs/MFA.md, "The session after verify").
    public var keyEncryptionKey: KeyEncryptionKey = .embeddedDefault
    public init(refreshTokenTTL: TimeInterval, grace: TimeInterval, recoversUnsavedSuccessors: Bool = true) {
        self.refreshTokenTTL = refreshTokenTTL
        self.grace = grace
        self.recoversUnsavedSuccessors = recoversUnsavedSuccessors
    }
}
