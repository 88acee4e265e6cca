import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// The second factor on `/account` (docs/MFA.md, "The account page"): list
/// the person's authenticator apps, add one (its QR code drawn by the
/// server's own encoder, inline SVG: the page's Content-Security-Policy
/// allows no image source and no script), verify, rename and remove it.
///
/// A person with a verified factor who signs in here with a password, an
/// emailed code or a provider gets a *step* browser session first: it opens
/// no page but the code form, and its session stays `aal1` until the code is
/// right. Only then is the browser signed in to the page, at `aal2`, so every
/// change made there (renaming or removing a factor among them) has that proof.
struct AccountFactorPages: Sendable {
    let web: WebPages
    let factors: FactorService
    /// The page's per-IP limit, on every code typed here (with the account's guessing budget in ``FactorService``).
    let limit: @Sendable (Request, AuthRequestContext) async throws -> Void
    let origin: @Sendable (Request, AuthRequestContext) -> SessionService.Origin

    static let stepTitle = "Type your authenticator code"
    static let enrolTitle = "Add an authenticator app"
    /// How long a first-factor sign-in waits for its code.
    static let stepLifetime: TimeInterval = 15 * 60

    var store: AuthStore { factors.store }

    func register(on pages: RouterGroup<AuthRequestContext>) {
        let group = pages.group("account")
        group.post("factors") { request, context in
            guard let (signedIn, form) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID else {
                return WebPages.refused(title: AccountPages.title)
            }
            do {
                let enrolled = try await factors.enroll(
                    EnrollFactorRequest(
                        factorType: FactorRecord.totp, friendlyName: form["friendly_name"].flatMap { $0.isEmpty ? nil : $0 }, issuer: nil),
                    identity: FactorCaller(userID: userID, sessionID: signedIn.sessionID), ip: origin(request, context).ip)
                return Self.enrolPage(factorID: enrolled.id, csrf: signedIn.csrf, qr: enrolled.totp.qrCode, secret: enrolled.totp.secret)
            } catch let error as AuthError {
                return Self.refusal(error)
            }
        }
        group.post("factors/:id/verify") { request, context in
            guard let (signedIn, form) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let id = context.parameters.get("id")
            else { return WebPages.refused(title: AccountPages.title) }
            try await limit(request, context)
            do {
                _ = try await factors.challengeAndVerify(
                    factorID: id, code: AccountSignInPages.digits(form["code"]),
                    caller: FactorCaller(userID: userID, sessionID: signedIn.sessionID), ip: origin(request, context).ip)
            } catch let error as AuthError {
                // The QR code is not shown again: the secret leaves once, and the app has it already.
                return Self.enrolPage(factorID: id, csrf: signedIn.csrf, error: error.message, status: Self.status(error))
            }
            return WebPages.seeOther("/account?done=factor-verified")
        }
        group.post("factors/:id/rename") { request, context in
            guard let (signedIn, form) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let id = context.parameters.get("id")
            else { return WebPages.refused(title: AccountPages.title) }
            do {
                try await factors.rename(
                    factorID: id, to: form["friendly_name"], caller: FactorCaller(userID: userID, sessionID: signedIn.sessionID),
                    ip: origin(request, context).ip)
            } catch let error as AuthError {
                return Self.refusal(error)
            }
            return WebPages.seeOther("/account?done=factor-renamed")
        }
        group.post("factors/:id/remove") { request, context in
            guard let (signedIn, _) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let id = context.parameters.get("id")
            else { return WebPages.refused(title: AccountPages.title) }
            do {
                _ = try await factors.unenroll(
                    factorID: id, identity: FactorCaller(userID: userID, sessionID: signedIn.sessionID), ip: origin(request, context).ip)
            } catch let error as AuthError {
                return Self.refusal(error)
            }
            return WebPages.seeOther("/account?done=factor-removed")
        }
        group.get("factor-step") { request, _ in
            guard let step = try await web.webSession(request, kind: .accountFactorStep) else { return WebPages.seeOther("/account") }
            return try await stepPage(step)
        }
        group.post("factor-step") { request, context in
            guard let (step, form) = try await web.postedForm(request, kind: .accountFactorStep), let userID = step.userID,
                let sessionID = step.sessionID
            else { return WebPages.refused(title: Self.stepTitle) }
            try await limit(request, context)
            do {
                _ = try await factors.challengeAndVerify(
                    factorID: form["factor_id"] ?? "", code: AccountSignInPages.digits(form["code"]),
                    caller: FactorCaller(userID: userID, sessionID: sessionID), ip: origin(request, context).ip)
            } catch let error as AuthError {
                return try await stepPage(step, error: error.message, status: Self.status(error))
            }
            // The step's browser session ends; the page's own begins, on the same (now aal2) session.
            if let token = web.cookie.value(in: request.headers) { try await store.deleteWebSession(tokenHash: SHA256Hex.of(token)) }
            return try await web.signIn(
                .init(kind: .account, userID: userID, sessionID: sessionID, csrf: RefreshTokenCodec.generate()),
                lifetime: AccountPages.lifetime, then: "/account")
        }
        group.post("factor-step/cancel") { request, _ in
            guard let (step, _) = try await web.postedForm(request, kind: .accountFactorStep), let userID = step.userID,
                let sessionID = step.sessionID
            else { return WebPages.refused(title: Self.stepTitle) }
            _ = try await store.revokeSession(id: sessionID, userID: userID, reason: "logout", now: factors.clock.now)
            return try await web.signOut(request, then: "/account")
        }
    }

    /// Where a first-factor sign-in of a person with a verified factor goes: the code form, its session still `aal1`.
    static func openStep(_ web: WebPages, userID: String, sessionID: String) async throws -> Response {
        try await web.signIn(
            .init(kind: .accountFactorStep, userID: userID, sessionID: sessionID, csrf: RefreshTokenCodec.generate()),
            lifetime: stepLifetime, then: "/account/factor-step")
    }

    /// The factors part of the account page's context.
    static func context(_ store: AuthStore, userID: String) async throws -> [String: Any] {
        let list = try await store.factors(userID: userID)
        return [
            "factors": list.map { factor in
                [
                    "id": factor.id, "name": factor.friendlyName ?? "Authenticator app", "verified": factor.isVerified,
                    "added": WebPages.date(factor.createdAt),
                ] as [String: Any]
            },
            "hasFactors": !list.isEmpty,
        ]
    }

    static func notice(_ done: String) -> String? {
        switch done {
        case "factor-verified": "Your authenticator app is on: signing in asks for its code after your password, email code or provider."
        case "factor-renamed": "The authenticator app is renamed."
        case "factor-removed": "The authenticator app is removed."
        default: nil
        }
    }

    private func stepPage(_ step: AuthStore.WebSession, error: String? = nil, status: HTTPResponse.Status = .ok) async throws
        -> Response
    {
        let verified = try await store.factors(userID: step.userID ?? "").filter(\.isVerified)
        var context: [String: Any] = [
            "title": Self.stepTitle, "csrf": step.csrf, "choose": verified.count > 1,
            "factors": verified.map { ["id": $0.id, "name": $0.friendlyName ?? "Authenticator app"] },
        ]
        context["error"] = error
        return WebPages.page("account-factor-step", context, status: status)
    }

    private static func enrolPage(
        factorID: String, csrf: String, qr: String? = nil, secret: String? = nil, error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        var context: [String: Any] = ["title": enrolTitle, "factorID": factorID, "csrf": csrf]
        context["qr"] = qr
        context["secret"] = secret
        context["error"] = error
        return WebPages.page("account-factor-enrol", context, status: status)
    }

    /// A refused factor change, on a page of its own with the way back.
    private static func refusal(_ error: AuthError) -> Response {
        WebPages.page(
            "message", ["title": AccountPages.title, "error": error.message, "link": "/account", "linkLabel": "Back to your account"],
            status: status(error))
    }

    /// GoTrue's status for `error`, 400 for the 422s (a form with a wrong field).
    private static func status(_ error: AuthError) -> HTTPResponse.Status {
        let status = GoTrueError(error).status
        return status == .unprocessableContent ? .badRequest : status
    }
}
