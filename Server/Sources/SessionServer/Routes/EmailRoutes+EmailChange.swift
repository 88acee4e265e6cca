import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// `/verify` of type `email_change` and `POST /resend` (docs/ACCOUNTS.md,
/// "Becoming permanent" and "A confirmed email change (server)").
extension EmailRoutes {
    func registerResend(on group: RouterGroup<AuthRequestContext>) {
        group.post("resend") { request, context in
            try await limit(request, context)
            try await mailLimit(request, context)
            let body = try await RequestDecoding.decode(ResendRequest.self, from: request)
            guard body.type == "email_change" else {
                // GoTrue's words (internal/api/resend.go); this server resends only an email change.
                throw AuthError.invalidRequest(
                    field: "type", "Missing one of these types: email_change (signup, sms and phone_change are not supported by this server)")
            }
            guard let email = body.email, !email.isEmpty else {
                throw AuthError.invalidRequest(field: "email", "Missing email address or phone number")
            }
            try await codes.resendEmailChange(
                email: email, bearerUserID: try await bearer(request)?.userID, link: try link(request), ip: context.clientIP)
            return try JSONResponse.make([String: String]())
        }
    }

    /// `POST /verify {type: "email_change"}`: GoTrue's answers (`verifyPost`,
    /// `internal/api/verify.go`), plus the same-session contract for a request
    /// that carries its session's bearer.
    func verifyEmailChange(_ body: VerifyRequest, _ request: Request, _ context: AuthRequestContext) async throws -> Response {
        switch try await codes.verifyEmailChange(Self.lookup(body), bearer: try await bearer(request), origin: origin(request, context)) {
        case .firstConfirmed:
            return try JSONResponse.make(["msg": EmailCodeService.singleConfirmationMessage, "code": "200"])
        case .changed(let session, _):
            return try JSONResponse.make(session)
        case .changedWithoutSession(let user):
            // Not reached: an API request always asks for a session.
            return try JSONResponse.make(user)
        }
    }

    /// The link page's form for an email change. With an app to return to,
    /// GoTrue's redirects (`verifyGet`): the message in the fragment after the
    /// first confirmation, the new session after the last. Without one, a page
    /// that says what happened, and no session nobody would receive.
    func confirmEmailChangeLink(_ form: WebForm, _ request: Request, _ context: AuthRequestContext) async throws -> Response {
        let target = form["redirect_to"].flatMap(allowed).flatMap { URL(string: $0) }
        do {
            let answer = try await codes.verifyEmailChange(
                .link(hash: form["token"] ?? ""), bearer: nil, origin: origin(request, context), issuesSession: target != nil)
            switch (answer, target) {
            case (.firstConfirmed, let target?):
                return OAuthRoutes.seeOther(Self.fragment(target, [("message", EmailCodeService.singleConfirmationMessage), ("sb", "")]))
            case (.changed(let session, _), let target?):
                return OAuthRoutes.seeOther(Self.fragment(target, Self.emailChangeItems(session)))
            case (.firstConfirmed, nil):
                return EmailChangeLinkPage.firstConfirmed()
            case (.changed(let session, _), nil):
                return EmailChangeLinkPage.changed(to: session.user?.email)
            case (.changedWithoutSession(let user), _):
                return EmailChangeLinkPage.changed(to: user.email)
            }
        } catch let error as AuthError where error == .emailCodeInvalid || error == .emailExists {
            let code = error == .emailExists ? "email_exists" : GoTrueErrorCode.otpExpired.rawValue
            guard let target else { return EmailChangeLinkPage.refused(error.message) }
            return OAuthRoutes.seeOther(
                Self.fragment(target, [("error", "access_denied"), ("error_code", code), ("error_description", error.message)]))
        }
    }

    /// GoTrue's implicit-flow answer for `type=email_change`.
    static func emailChangeItems(_ session: TokenResponse) -> [(String, String)] {
        [
            ("access_token", session.accessToken), ("expires_at", String(session.expiresAt ?? 0)),
            ("expires_in", String(session.expiresIn)), ("refresh_token", session.refreshToken),
            ("token_type", "bearer"), ("type", "email_change"),
        ]
    }
}

/// `POST /resend` body (GoTrue's `ResendConfirmationParams`).
struct ResendRequest: Sendable, Decodable {
    var type: String?
    var email: String?
    var phone: String?
}
