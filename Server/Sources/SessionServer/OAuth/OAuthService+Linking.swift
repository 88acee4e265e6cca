import Foundation
import Logging
import SessionCore

/// Identity linking for a signed-in person (GoTrue's `LinkIdentity`,
/// `DeleteIdentity` and the `link_identity` ID-token grant), with one
/// addition: a link never starts a second session (docs/ACCOUNTS.md, "Linked identities (server)").
extension OAuthService {
    /// `GET /user/identities/authorize`: a provider flow whose callback links
    /// the identity to the caller and whose code answers for the caller's session.
    func authorizeLink(_ request: AuthorizeRequest, identity: AuthenticatedIdentity, callbackURL: String) async throws -> URL {
        let target = try await linkTarget(identity)
        var request = request
        request.linking = target
        return try await authorize(request, callbackURL: callbackURL)
    }

    /// `grant_type=id_token` with `link_identity: true`: links the Apple
    /// account to the bearer's user and answers for the bearer's session, its
    /// refresh token swapped (never a new session).
    func link(idToken request: IDTokenRequest, identity: AuthenticatedIdentity, ip: String?) async throws -> TokenResponse {
        let target = try await linkTarget(identity)
        let account = try await appleAccount(request)
        let linked = try await store.linkIdentity(
            .init(
                provider: "apple", account: account, target: target, ip: ip,
                swap: (configuration.refreshTokenTTL, sessions.policy.keyEncryptionKey)),
            now: clock.now)
        guard let refreshToken = linked.refreshToken else { throw AuthError.internalFailure }
        logger.info("Linked an Apple ID token", metadata: ["user": "\(linked.user.id)"])
        return try await sessions.tokenResponse(user: linked.user, session: linked.session, refreshToken: refreshToken)
    }

    /// `DELETE /user/identities/{id}`.
    func unlink(identityID: String, identity: AuthenticatedIdentity, ip: String?) async throws {
        guard configuration.manualLinking else { throw AuthError.manualLinkingDisabled }
        guard let uuid = UUID(uuidString: identityID) else { throw AuthError.identityIDNotUUID }
        try await requireAAL2IfEnrolled(identity)
        _ = try await store.unlinkIdentity(uuid.uuidString.lowercased(), userID: identity.userID, ip: ip, now: clock.now)
        logger.info("Identity unlinked", metadata: ["user": "\(identity.userID)"])
    }

    /// The callback of a link flow: links, then hands the app a code as a
    /// sign-in would; a refusal goes to the app's `redirect_to` as GoTrue's
    /// `redirectErrors` sends it.
    func finishLink(_ flow: OAuthFlowRecord, provider: String, account: ProviderAccount) async throws -> URL {
        guard let userID = flow.linkingUserID, let sessionID = flow.linkingSessionID else { throw AuthError.internalFailure }
        do {
            _ = try await store.linkIdentity(
                .init(provider: provider, account: account, target: .init(userID: userID, sessionID: sessionID), ip: nil),
                now: clock.now)
            let authCode = RefreshTokenCodec.generate()
            try await store.issueOAuthCode(
                flowID: flow.id, userID: userID, codeHash: RefreshTokenCodec.hash(authCode),
                expiresAt: clock.now.addingTimeInterval(configuration.oauthCodeLifetime))
            logger.info("Identity linked", metadata: ["provider": "\(provider)", "user": "\(userID)"])
            return try redirect(flow, items: [URLQueryItem(name: "code", value: authCode)])
        } catch let error as AuthError where error.kind != .internalFailure && error.kind != .databaseUnavailable {
            logger.notice("A link was refused", metadata: ["provider": "\(provider)", "reason": "\(error.kind.rawValue)"])
            return try redirect(flow, error: error.redirectError)
        } catch {
            logger.error("The link could not be recorded", metadata: ["error.type": "\(type(of: error))"])
            return try redirect(
                flow,
                error: OAuthRedirectError(
                    error: "server_error", errorCode: .unexpectedFailure,
                    description: "The link could not be completed on our side. Please try again."))
        }
    }

    /// The caller as a link target, once linking is on and the caller may link.
    ///
    /// Stricter than GoTrue, which asks neither: an account with a verified
    /// second factor links only from an `aal2` session (adding a way to sign in
    /// is as sensitive as changing the password), and the ID-token link is behind
    /// `--manual-linking` too.
    private func linkTarget(_ identity: AuthenticatedIdentity) async throws -> AuthStore.LinkTarget {
        guard configuration.manualLinking else { throw AuthError.manualLinkingDisabled }
        guard let sessionID = identity.sessionID else { throw AuthError.sessionRevoked }
        try await requireAAL2IfEnrolled(identity)
        return AuthStore.LinkTarget(userID: identity.userID, sessionID: sessionID)
    }

    private func requireAAL2IfEnrolled(_ identity: AuthenticatedIdentity) async throws {
        try await AssuranceGate(store: store).requireAAL2IfEnrolled(
            identity, status: 403, "AAL2 session is required to link or unlink identities when MFA is enabled.")
    }
}
