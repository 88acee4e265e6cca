import Foundation
import HTTPTypes
import Hummingbird

/// The page an email change's link opens: one button that posts the link's
/// token, as ``EmailLinkPage`` does for sign-in links (a GET changes nothing,
/// so mail scanners spend no link). Unlike a sign-in link, it works with no
/// app to return to: confirming an address needs no session.
enum EmailChangeLinkPage {
    static func confirm(token: String?, redirectTo: String?) -> Response {
        guard let token, !token.isEmpty, token.utf8.count <= 128 else {
            return EmailLinkPage.page(
                status: .badRequest, title: "This link is not complete",
                body: "<p>The link is missing part of its address. Open it again from the email, or type the code from the same email into the app.</p>")
        }
        let escape = MailTemplate.escapeHTML
        let redirectField = redirectTo.map { #"<input type="hidden" name="redirect_to" value="\#(escape($0))">"# } ?? ""
        return EmailLinkPage.page(
            status: .ok, title: "Confirm the email change",
            body: """
                <form method="post" action="verify">
                <input type="hidden" name="token" value="\(escape(token))">
                <input type="hidden" name="type" value="email_change">
                \(redirectField)
                <button type="submit" style="font-size: 1.1rem; padding: 0.6rem 1.2rem">Confirm the email change</button>
                </form>
                <p style="color: #444">The link works once. If you did not ask for the change, close this page: nothing changes.</p>
                """)
    }

    static func firstConfirmed() -> Response {
        EmailLinkPage.page(
            status: .ok, title: "One address confirmed",
            body: "<p>Now open the link sent to the other address (or type its code in the app). The address changes once both are confirmed.</p>")
    }

    static func changed(to email: String?) -> Response {
        EmailLinkPage.page(
            status: .ok, title: "Your email address is changed",
            body: "<p>Your account's email address is now \(MailTemplate.escapeHTML(email ?? "")). You can close this page.</p>")
    }

    static func refused(_ message: String) -> Response {
        EmailLinkPage.page(
            status: .forbidden, title: "This link does not work",
            body: "<p>\(MailTemplate.escapeHTML(message)) Ask for the change again from the app or the account page.</p>")
    }
}
