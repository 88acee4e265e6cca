import Foundation
import Logging
import SessionCore

/// Starting a person without asking for anything: GoTrue's anonymous sign-in
/// (`POST /auth/v1/signup` with neither email nor phone, docs/ACCOUNTS.md).
///
/// The session it answers is established like every other sign-in (rule A,
/// docs/PROTOCOL.md). It is the person's only way back into their account until
/// they add an email or link a provider, which is why ``SessionClient`` refuses a
/// plain sign-out of it.
struct AnonymousSignIn: Sendable {
    static let route = GoTrueRoute(feature: "Anonymous sign-in")

    func signIn(
        data: [String: JSONValue]?, captchaToken: String?, on engine: isolated any SessionEngine
    ) async throws(SessionError) -> Session {
        let body = Body(data: data, security: captchaToken.map { Body.Security(captchaToken: $0) })
        let request = try Self.route.request(engine.backend, "POST", "auth/v1/signup", json: body)
        let session: Session
        do throws(SessionError) {
            session = try await engine.signIn(with: request)
        } catch where error.goTrueErrorCode == Self.disabled {
            throw SessionError.unsupported.with(
                message: "This server does not allow anonymous sign-ins (switch them on: auth-server --anonymous-sign-ins).",
                status: error.status, goTrueErrorCode: error.goTrueErrorCode)
        }
        engine.logger.info("Signed in anonymously", metadata: ["user": "\(session.user?.id ?? "-")"])
        return session
    }

    /// GoTrue's code when anonymous sign-ins are off (`EXTERNAL_ANONYMOUS_USERS_ENABLED`).
    static let disabled = GoTrueErrorCode("anonymous_provider_disabled")

    /// GoTrue's sign-up body without email or phone; `gotrue_meta_security` as supabase-swift sends a captcha token.
    private struct Body: Encodable {
        struct Security: Encodable {
            var captchaToken: String
            enum CodingKeys: String, CodingKey { case captchaToken = "captcha_token" }
        }
        var data: [String: JSONValue]?
        var security: Security?
        enum CodingKeys: String, CodingKey {
            case data
            case security = "gotrue_meta_security"
        }
    }
}
