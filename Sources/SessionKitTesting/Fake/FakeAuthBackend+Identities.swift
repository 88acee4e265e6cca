import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// GoTrue's identity linking in the fake (`internal/api/identity.go`; docs/ACCOUNTS.md):
/// `GET /user/identities/authorize` (bearer, `skip_http_redirect`) answers `{"url": …}`;
/// the test plays the provider with ``approveLink(_:subject:)``; the code's PKCE exchange
/// answers the linking session's successor (same session, refresh token swapped), never a
/// new session. `grant_type=id_token` with `link_identity: true` links Apple's token alike.
/// `DELETE /user/identities/{id}` never removes the last identity.
extension FakeAuthBackend {
    // MARK: - Test controls

    /// Plays "the person consented at the provider" for a linking URL the server answered:
    /// the callback with a `code`, or GoTrue's `identity_already_exists` error when that
    /// provider account is already another user's.
    public func approveLink(_ providerURL: URL, subject: String) throws -> URL {
        let items = URLComponents(url: providerURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard let state = items.first(where: { $0.name == "state" })?.value, var link = accounts.linksStarted[state] else {
            throw OAuthDriverError(description: "Not a linking URL this fake answered: \(providerURL)")
        }
        accounts.linksStarted[state] = nil
        if let owner = identityOwner(provider: link.provider, subject: subject), owner != link.userID {
            return try Self.append(
                ["error": "server_error", "error_code": "identity_already_exists",
                 "error_description": "Identity is already linked to another user"], to: link.redirectTo)
        }
        link.subject = subject
        let code = Self.randomToken()
        accounts.linkCodes[code] = link
        return try Self.append(["code": code], to: link.redirectTo)
    }

    // MARK: - Routes

    /// `/resend` and `/user/identities…`; `nil` for any other path.
    func handleAccountRoutes(_ request: URLRequest) throws -> (Data, HTTPURLResponse)? {
        guard let url = request.url else { return nil }
        let method = request.httpMethod ?? "GET"
        if method == "POST", url.path == "/auth/v1/resend" { return try handleResend(request) }
        guard url.path.hasPrefix("/auth/v1/user/identities") else { return nil }
        let (user, sessionID): (User, String)
        switch authenticate(request) {
        case .success(let value): (user, sessionID) = value
        case .failure(let failure): return try goTrueAuthError(request, failure)
        }
        if method == "GET", url.path == "/auth/v1/user/identities/authorize" {
            return try startLink(request, url: url, user: user, sessionID: sessionID)
        }
        let parts = url.path.split(separator: "/").map(String.init)  // auth, v1, user, identities, {id}
        if method == "DELETE", parts.count == 5 { return try unlink(request, identityID: parts[4], user: user) }
        return try goTrueError(request, status: 404, code: GoTrueErrorCode("not_found"), message: "Not found")
    }

    private func startLink(_ request: URLRequest, url: URL, user: User, sessionID: String) throws -> (Data, HTTPURLResponse) {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        guard let provider = value("provider"), !provider.isEmpty, let challenge = value("code_challenge"),
            value("code_challenge_method") == "s256", let redirect = value("redirect_to").flatMap(URL.init(string:))
        else {
            return try goTrueError(request, status: 400, code: .validationFailed, message: "Unsupported provider or missing PKCE parameters")
        }
        let state = Self.randomToken()
        accounts.linksStarted[state] = FakeAccounts.Link(
            userID: user.record.id, sessionID: sessionID, provider: provider, challenge: challenge, redirectTo: redirect)
        let providerURL = try Self.append(["state": state, "client_id": "fake"], to: URL(string: "https://\(provider).provider.test/authorize")!)
        return try json(request, ["url": providerURL.absoluteString])
    }

    /// A PKCE exchange of a linking code; `nil` when the code is not one.
    func handleLinkExchange(_ request: URLRequest) throws -> (Data, HTTPURLResponse)? {
        guard let body = decodeBody(PKCETokenRequest.self, request), let link = accounts.linkCodes[body.authCode] else { return nil }
        guard PKCE.challenge(for: body.codeVerifier) == link.challenge else {
            return try goTrueError(
                request, status: 400, code: .badCodeVerifier, message: "code challenge does not match previously saved code verifier")
        }
        accounts.linkCodes[body.authCode] = nil
        guard let subject = link.subject, let record = addIdentity(provider: link.provider, subject: subject, email: nil, toUser: link.userID)
        else { return try goTrueError(request, status: 404, code: .userNotFound, message: "User not found") }
        return try json(request, swapRefreshToken(sessionID: link.sessionID, user: record))
    }

    /// `grant_type=id_token` with `link_identity: true` and the bearer; `nil` for a sign-in.
    func handleIDTokenLink(_ request: URLRequest) throws -> (Data, HTTPURLResponse)? {
        struct Body: Decodable {
            var idToken: String?
            var nonce: String?
            var provider: String?
            var linkIdentity: Bool?
            enum CodingKeys: String, CodingKey {
                case nonce, provider
                case idToken = "id_token"
                case linkIdentity = "link_identity"
            }
        }
        guard let body = decodeBody(Body.self, request), body.linkIdentity == true else { return nil }
        let (user, sessionID): (User, String)
        switch authenticate(request) {
        case .success(let value): (user, sessionID) = value
        case .failure(let failure): return try goTrueAuthError(request, failure)
        }
        guard let token = body.idToken, let entry = appleTokens[token], body.provider == "apple",
            body.nonce.map({ AppleSignInNonce(raw: $0).hashed }) == entry.nonceHash
        else { return try goTrueError(request, status: 400, code: .badJWT, message: "Invalid ID token") }
        if let owner = identityOwner(provider: "apple", subject: entry.sub), owner != user.record.id {
            return try goTrueError(
                request, status: 422, code: GoTrueErrorCode("identity_already_exists"), message: "Identity is already linked to another user")
        }
        guard let record = addIdentity(provider: "apple", subject: entry.sub, email: entry.email, toUser: user.record.id) else {
            return try goTrueError(request, status: 404, code: .userNotFound, message: "User not found")
        }
        if let key = userKey(id: record.id) { appleUsers[entry.sub] = key }
        return try json(request, swapRefreshToken(sessionID: sessionID, user: record))
    }

    private func unlink(_ request: URLRequest, identityID: String, user: User) throws -> (Data, HTTPURLResponse) {
        guard let key = userKey(id: user.record.id), var record = users[key]?.record,
            let identities = record.identities, identities.contains(where: { $0.identityId == identityID })
        else {
            return try goTrueError(request, status: 422, code: GoTrueErrorCode("identity_not_found"), message: "Identity doesn't exist")
        }
        guard identities.count > 1 else {
            return try goTrueError(
                request, status: 422, code: GoTrueErrorCode("single_identity_not_deletable"),
                message: "User must have at least 1 identity after unlinking")
        }
        record.identities = identities.filter { $0.identityId != identityID }
        record.updatedAt = serverNow
        users[key]?.record = record
        return try respond(request, status: 200, body: Data("{}".utf8), headers: ["Content-Type": "application/json"])
    }

    // MARK: - Records

    private func identityOwner(provider: String, subject: String) -> String? {
        if provider == "apple", let key = appleUsers[subject], let owner = users[key] { return owner.record.id }
        return users.values.first { user in
            user.record.identities?.contains { $0.provider == provider && $0.id == subject } == true
        }?.record.id
    }

    /// Adds the identity (an email user gains their `email` identity first, as GoTrue has it); the user stops being anonymous.
    private func addIdentity(provider: String, subject: String, email: String?, toUser id: String) -> SessionUser? {
        guard let key = userKey(id: id), var record = users[key]?.record else { return nil }
        let now = serverNow
        var identities = record.identities ?? []
        if identities.isEmpty, let address = record.email, record.isAnonymous != true {
            identities.append(UserIdentity(
                id: record.id, identityId: UUID().uuidString.lowercased(), userId: record.id, provider: "email",
                identityData: ["email": .string(address), "sub": .string(record.id)], createdAt: record.createdAt, updatedAt: now))
        }
        var data: [String: JSONValue] = ["sub": .string(subject)]
        if let email { data["email"] = .string(email) }
        identities.append(UserIdentity(
            id: subject, identityId: UUID().uuidString.lowercased(), userId: record.id, provider: provider, identityData: data,
            createdAt: now, updatedAt: now, lastSignInAt: now))
        record.identities = identities
        record.isAnonymous = false
        var providers: [String] = []
        if case .array(let listed)? = record.appMetadata["providers"] { providers = listed.compactMap(\.stringValue) }
        if !providers.contains(provider) { providers.append(provider) }
        record.appMetadata["providers"] = .array(providers.map(JSONValue.string))
        record.updatedAt = now
        users[key]?.record = record
        return record
    }
}
