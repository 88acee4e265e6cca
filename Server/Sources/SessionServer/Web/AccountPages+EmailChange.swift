import Foundation
import Hummingbird
import SessionCore

/// `/account`'s email change: a form, then the mailed codes (docs/ACCOUNTS.md,
/// "A confirmed email change (server)"). The same rules as the API's: the
/// page's presence proof and `aal2` gate, codes to both addresses, and no
/// session made by the confirmation (the page keeps its own).
extension AccountPages {
    func registerEmailChange(on group: RouterGroup<AuthRequestContext>) {
        group.post("email") { request, context in
            guard let (signedIn, form) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let user = try await sessions.store.user(id: userID)
            else { return WebPages.refused(title: Self.title) }
            do {
                let newEmail = try SessionService.normalize(email: form["email"] ?? "")
                guard newEmail != user.email else {
                    throw AuthError.invalidRequest(field: "email", "That is already your address.")
                }
                try await requirePresence(user, signedIn, form, request, context)
                try await signIn.mailLimit(request, context)
                let root = try OAuthRoutes.publicRoot(
                    externalURL: sessions.configuration.externalURL, authority: request.head.authority)
                _ = try await codes.requestEmailChange(
                    sessionID: signedIn.sessionID, user: user, to: newEmail, currentPassword: nil, nonce: nil,
                    presenceProven: true, link: .init(root: root, redirectTo: nil), ip: origin(request, context).ip)
            } catch let error as AuthError {
                return try await refused(error, user, signedIn)
            }
            return WebPages.seeOther("/account?done=email-sent")
        }
        group.post("email/confirm") { request, context in
            guard let (signedIn, form) = try await web.postedForm(request, kind: .account), let userID = signedIn.userID,
                let user = try await sessions.store.user(id: userID)
            else { return WebPages.refused(title: Self.title) }
            guard let pending = user.pendingEmail else { return WebPages.seeOther("/account") }
            // The new address's code first, then the current one's: each a `/verify` of its own.
            let typed: [(String, String?)] = [(pending, form["new_code"]), (user.email ?? "", form["current_code"])]
            var changed = false
            do {
                let entered = typed.compactMap { address, code in
                    code.map(AccountSignInPages.digits).flatMap { address.isEmpty || $0.isEmpty ? nil : (address, $0) }
                }
                guard !entered.isEmpty else {
                    throw AuthError.invalidRequest(field: "new_code", "Type the code from the email, then send it again.")
                }
                for (address, code) in entered {
                    let answer = try await codes.verifyEmailChange(
                        .code(email: address, code: code), bearer: nil, origin: origin(request, context), issuesSession: false)
                    if case .firstConfirmed = answer { continue }
                    changed = true
                }
            } catch let error as AuthError {
                return try await refused(error, user, signedIn)
            }
            return WebPages.seeOther(changed ? "/account?done=email" : "/account?done=email-one")
        }
    }
}
