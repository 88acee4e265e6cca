import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Linking and unlinking a provider's identity on GoTrue's wire (docs/ACCOUNTS.md,
/// "Linking identities (SDK)"): `GET /user/identities/authorize` (bearer, PKCE) then the
/// provider's page through the app's presenter, the code's `grant_type=pkce` exchange;
/// Apple's ID token with `link_identity: true`; `DELETE /user/identities/{id}`.
///
/// A link answers the signed-in session's successor (the same session, its refresh token
/// swapped): established through the engine as a verify is, re-checked after every wait,
/// so a sign-out while the provider's page was open is never undone. An anonymous person
/// who links becomes permanent with the same id and session.
struct IdentityLinking: Sendable {
    static let route = GoTrueRoute(feature: "Linking identities")
    static let alreadyLinked = GoTrueErrorCode("identity_already_exists")
    static let singleIdentity = GoTrueErrorCode("single_identity_not_deletable")
    static let notFound = GoTrueErrorCode("identity_not_found")

    func link(
        provider: String, redirectTo: URL, scopes: [String], presenter: any WebAuthenticationPresenter,
        on engine: isolated any SessionEngine
    ) async throws(SessionError) -> Session {
        guard !provider.isEmpty else { throw SessionError.invalidRequest.with(message: "The provider name is empty.") }
        let scheme = try WebOAuthSignIn.callbackScheme(of: redirectTo)
        let mark = try engine.markSignedIn()
        // The verifier stays in memory: a link abandoned with the app is simply not made, the session untouched.
        let verifier = PKCE.makeVerifier()
        var query = [
            "provider": provider, "skip_http_redirect": "true", "redirect_to": redirectTo.absoluteString,
            "code_challenge": PKCE.challenge(for: verifier), "code_challenge_method": "s256",
        ]
        if !scopes.isEmpty { query["scopes"] = scopes.joined(separator: " ") }
        let start = try Self.route.request(engine.backend, "GET", "auth/v1/user/identities/authorize", query: query)
        let (data, _) = try await engine.authorizedSend(start)
        let page = try BackendDecoding.decode(AuthorizeAnswer.self, from: data, what: "linking URL").url
        guard let pageURL = URL(string: page), let pageScheme = pageURL.scheme?.lowercased(), ["https", "http"].contains(pageScheme) else {
            throw SessionError.decoding.with(message: "The server's linking URL could not be used.", underlying: "url is not an http(s) URL")
        }
        engine.logger.info("Identity linking started", metadata: ["provider": "\(provider)"])
        let callback: URL
        do {
            callback = try await presenter.present(pageURL, callbackScheme: scheme)
        } catch {
            throw WebOAuthSignIn.sessionError(for: error)
        }
        try WebOAuthSignIn.check(callback, answers: redirectTo)
        let code = try Self.code(in: callback, logger: engine.logger)
        let exchange = try engine.backend.request(for: .exchangeCode(PKCETokenRequest(authCode: code, codeVerifier: verifier)))
        let (answer, response) = try await engine.sendObserved(exchange).get()
        guard (200..<300).contains(response.statusCode) else {
            throw Self.linkError(OAuthSignIn.exchangeError(status: response.statusCode, body: answer, response: response))
        }
        let session = try await engine.establishSuccessor(of: mark, answer: answer, what: "identity link")
        engine.logger.info("An identity was linked; the session continues", metadata: ["provider": "\(provider)"])
        return session
    }

    /// Links the ID token a provider gave the app (Sign in with Apple): `grant_type=id_token`, `link_identity: true`, bearer.
    func link(idToken: String, provider: String, nonce: String?, on engine: isolated any SessionEngine) async throws(SessionError) -> Session {
        guard !idToken.isEmpty else { throw SessionError.invalidRequest.with(message: "The ID token is empty.") }
        let mark = try engine.markSignedIn()
        let body = LinkIDToken(provider: provider, idToken: idToken, nonce: nonce)
        let request = try Self.route.request(engine.backend, "POST", "auth/v1/token", query: ["grant_type": "id_token"], json: body)
        let data: Data
        do throws(SessionError) {
            data = try await engine.authorizedSend(request).0
        } catch {
            throw Self.linkError(error)
        }
        let session = try await engine.establishSuccessor(of: mark, answer: data, what: "ID token link")
        engine.logger.info("An identity was linked with an ID token; the session continues", metadata: ["provider": "\(provider)"])
        return session
    }

    func unlink(_ identity: UserIdentity, on engine: isolated any SessionEngine) async throws(SessionError) {
        let id = try GoTrueRoute.checkedID(identity.identityId ?? identity.id, what: "identity id")
        let request = try Self.route.request(engine.backend, "DELETE", "auth/v1/user/identities/\(id)")
        do throws(SessionError) {
            _ = try await engine.authorizedSend(request)
        } catch where error.goTrueErrorCode == Self.singleIdentity {
            throw SessionError.lastIdentity.with(status: error.status, goTrueErrorCode: error.goTrueErrorCode)
        } catch where error.goTrueErrorCode == Self.notFound {
            throw SessionError.notFound.with(
                message: "That identity is not linked to this account.", status: error.status, goTrueErrorCode: error.goTrueErrorCode)
        }
        engine.logger.info("An identity was unlinked", metadata: ["provider": "\(identity.provider)"])
        // The server changed the user: say so (a failed read leaves the older user, and is logged, never thrown:
        // the unlink itself is done).
        do throws(SessionError) {
            _ = try await AccountRequests().me(on: engine)
        } catch {
            engine.logger.notice("The user could not be read again after unlinking", metadata: ["reason": "\(error)"])
        }
    }

    func identities(on engine: isolated any SessionEngine) async throws(SessionError) -> [UserIdentity] {
        // GoTrue's `identities` only: another backend answers unsupported here, not an empty list.
        _ = try Self.route.request(engine.backend, "GET", "auth/v1/user")
        return try await AccountRequests().me(on: engine).identities ?? []
    }

    // MARK: - Answers

    /// The callback's code; a provider's or GoTrue's error in it, typed.
    static func code(in callback: URL, logger: Logger) throws(SessionError) -> String {
        let parsed: OAuthCallback
        do {
            parsed = try OAuthCallback.parse(callback)
        } catch {
            logger.notice("The linking callback was refused", metadata: ["reason": "\(error.field ?? error.error ?? "unreadable")"])
            if error.errorCode == alreadyLinked.rawValue {
                throw SessionError.identityAlreadyLinked.with(goTrueErrorCode: alreadyLinked, underlying: error.message)
            }
            throw OAuthSignIn.sessionError(for: error)
        }
        guard case .code(let code) = parsed.result else {
            // A link never answers tokens in the fragment: the implicit flow is not a link.
            throw SessionError.oauthCallbackInvalid.with(message: "The linking callback carried no code. Please try again.")
        }
        return code
    }

    static func linkError(_ error: SessionError) -> SessionError {
        if error.goTrueErrorCode == alreadyLinked {
            return SessionError.identityAlreadyLinked.with(status: error.status, goTrueErrorCode: error.goTrueErrorCode)
        }
        // A 400 `bad_jwt` on the grant is the ID token refused, never the session's access token (that is a 401/403).
        if error.goTrueErrorCode == .badJWT, error.status == 400 {
            return SessionError.invalidCredentials.with(
                message: "The server did not accept the ID token. Please try again.", status: error.status,
                goTrueErrorCode: error.goTrueErrorCode)
        }
        return error
    }

    private struct AuthorizeAnswer: Codable, Sendable { var url: String }

    private struct LinkIDToken: Encodable {
        var provider: String
        var idToken: String
        var nonce: String?
        var linkIdentity = true
        enum CodingKeys: String, CodingKey {
            case provider, nonce
            case idToken = "id_token"
            case linkIdentity = "link_identity"
        }
    }
}
