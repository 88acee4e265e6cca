import Foundation
import SessionCore

/// GoTrue's admin API, decided here; ``AdminRoutes`` parses and answers
/// (docs/ADMIN.md). Every change is written to the audit log with the
/// change, in one transaction.
struct AdminService: Sendable {
    let sessions: SessionService
    /// The audit log's `actor`: the role for the API, the console's key by name for the console.
    var actor = ServiceRoleClaims.role

    var store: AuthStore { sessions.store }

    /// This service, logging `key` as the actor of every change.
    func acting(as key: AuthStore.ConsoleKey?) -> AdminService {
        var service = self
        service.actor = key?.actor ?? ServiceRoleClaims.role
        return service
    }
    var clock: any SessionClock { sessions.clock }

    /// `POST /admin/users`.
    ///
    /// - Throws: ``AuthError/userAlreadyExists``, or a validation error naming the field.
    func createUser(_ attributes: AdminUserAttributes, ip: String?) async throws -> UserRecord {
        guard let rawEmail = attributes.email else { throw AuthError.invalidRequest(field: "email", "email is required.") }
        let email = try SessionService.normalize(email: rawEmail)
        // Both checked before the user exists: a refusal must leave no half-made account.
        try MetadataLimits.check(attributes.userMetadata ?? [:])
        try MetadataLimits.check(attributes.appMetadata ?? [:])
        var hash = ""
        if let password = attributes.password {
            try sessions.validate(password: password)
            hash = await sessions.hasher.hash(password)
        }
        let now = clock.now
        let created = try await store.createUser(
            email: email, passwordHash: hash, metadata: attributes.userMetadata ?? [:], now: now,
            audit: AuditActor(actor: actor, ip: ip, now: now))
        // The rest (confirmation, app metadata, a ban) as an update, audited as the creation's second half.
        return try await store.applyAdminChange(
            AuthStore.AdminUserChange(
                emailConfirmed: attributes.emailConfirm ?? false, appMetadata: attributes.appMetadata,
                bannedUntil: try attributes.banDuration.map { try Self.bannedUntil($0, now: now) }),
            to: created.id, audit: (actor, ip), now: now)
    }

    /// `PUT /admin/users/{id}`.
    func updateUser(id: String, _ attributes: AdminUserAttributes, ip: String?) async throws -> UserRecord {
        let now = clock.now
        var hash: String?
        if let password = attributes.password {
            try sessions.validate(password: password)
            hash = await sessions.hasher.hash(password)
        }
        return try await store.applyAdminChange(
            AuthStore.AdminUserChange(
                email: try attributes.email.map(SessionService.normalize(email:)), passwordHash: hash,
                emailConfirmed: attributes.emailConfirm, userMetadata: attributes.userMetadata,
                appMetadata: attributes.appMetadata,
                bannedUntil: try attributes.banDuration.map { try Self.bannedUntil($0, now: now) }),
            to: id, audit: (actor, ip), now: now)
    }

    /// `DELETE /admin/users/{id}`: the user, their sessions and identities.
    func deleteUser(id: String, ip: String?) async throws {
        guard try await store.user(id: id) != nil else { throw AuthError.notFound }
        try await store.deleteUser(id: id, audit: AuditActor(actor: actor, ip: ip, now: clock.now))
    }

    /// `POST /admin/users/{id}/logout`: every session of the user ends (after a reuse warning, say).
    func signOutEverywhere(id: String, ip: String?) async throws {
        guard try await store.user(id: id) != nil else { throw AuthError.notFound }
        let now = clock.now
        try await store.revokeSessions(userID: id, keeping: nil, reason: "admin", now: now)
        try await store.audit(actor: actor, action: "user_signed_out", target: id, ip: ip, now: now)
    }

    /// What `POST /admin/generate_link` answers besides the user.
    struct GeneratedLink: Sendable {
        var user: UserRecord
        var actionLink: String
        var emailOTP: String
        var hashedToken: String
        /// Where the link sends the person after: `redirect_to`, else this
        /// server's root (GoTrue's site URL), never absent.
        var redirectTo: String
        var verificationType: String
    }

    /// `POST /admin/generate_link`: a code and link as the email would carry
    /// them, for the operator's own mail (or a backend minting a session:
    /// `verify` with `token_hash`). Nothing is sent.
    ///
    /// `magiclink` and `signup` create the user when the address has none
    /// (`signup` with the given password); `recovery` needs an account.
    func generateLink(_ request: GenerateLinkRequest, root: String, redirectTo: String?, ip: String?) async throws
        -> GeneratedLink
    {
        let email = try SessionService.normalize(email: request.email ?? "")
        let now = clock.now
        var user = try await store.user(email: email)
        switch request.type {
        case "magiclink", "signup":
            if request.type == "signup", user != nil { throw AuthError.userAlreadyExists }
            if user == nil {
                var attributes = AdminUserAttributes(email: email, password: request.password)
                attributes.userMetadata = request.data
                user = try await createUser(attributes, ip: ip)
            }
        case "recovery":
            guard user != nil else { throw AuthError.notFound }
        default:
            throw AuthError.invalidRequest(
                field: "type", "type must be magiclink, signup or recovery; invite and email_change are not supported.")
        }
        guard let user else { throw AuthError.notFound }
        // A signup link is the sign-up's confirmation: it keeps the password the admin
        // just set, as GoTrue does (issue 37, item 11). A sign-in code would clear it,
        // since an unconfirmed account's password is nobody's proof.
        let purpose: AuthStore.OneTimeTokenPurpose =
            switch request.type {
            case "recovery": .recovery
            case "signup": .signUp
            default: .signIn
            }
        let code = EmailCodeService.newCode()
        let token = RefreshTokenCodec.generate()
        try await store.issueOneTimeToken(
            id: UUID().uuidString.lowercased(), purpose: purpose, email: email, code: code,
            linkHash: SHA256Hex.of(token), createUser: false, metadata: [:], now: now,
            lifetime: sessions.configuration.emailCodeLifetime)
        try await store.audit(
            actor: actor, action: "link_generated", target: user.id, ip: ip,
            details: ["type": .string(request.type ?? "")], now: now)
        return GeneratedLink(
            user: user, actionLink: EmailCodeService.verifyURL(root: root, token: token, type: request.type ?? "", redirectTo: redirectTo),
            emailOTP: code, hashedToken: token, redirectTo: redirectTo ?? root, verificationType: request.type ?? "")
    }

    static func bannedUntil(_ duration: String, now: Date) throws -> Date? {
        try BanDuration.parse(duration).map { now.addingTimeInterval($0) }
    }
}

/// `POST`/`PUT /admin/users` bodies, in GoTrue's names.
struct AdminUserAttributes: Sendable, Decodable {
    var email: String?
    var password: String?
    var emailConfirm: Bool?
    var userMetadata: [String: JSONValue]?
    var appMetadata: [String: JSONValue]?
    var banDuration: String?

    init(email: String? = nil, password: String? = nil) {
        self.email = email
        self.password = password
    }

    enum CodingKeys: String, CodingKey {
        case email, password
        case emailConfirm = "email_confirm"
        case userMetadata = "user_metadata"
        case appMetadata = "app_metadata"
        case banDuration = "ban_duration"
    }
}

/// `POST /admin/generate_link` body.
struct GenerateLinkRequest: Sendable, Decodable {
    var type: String?
    var email: String?
    var password: String?
    var data: [String: JSONValue]?
}
