import Foundation
import HTTPTypes
import Hummingbird

/// The page an email's link opens: one button that posts the link's token.
///
/// The link itself (a GET) changes nothing, because mail scanners and link
/// previews fetch every link in a message; a link that signed in on GET
/// would be spent before its owner clicked it. The page uses no script.
enum EmailLinkPage {
    /// The button page, or, when the link names no allowed place to return
    /// to, a page that says to type the code instead (nothing is spent).
    static func confirm(token: String?, type: String?, redirectTo: String?) -> Response {
        guard let token, !token.isEmpty, token.utf8.count <= 128, let type, VerifyType(rawValue: type) != nil else {
            return page(
                status: .badRequest, title: "This link is not complete",
                body: "<p>The link is missing part of its address. Open it again from the email, or type the code from the same email into the app.</p>")
        }
        guard let redirectTo else {
            return page(
                status: .ok, title: "Type the code in the app",
                body: "<p>This link has no app to return to. Type the six-digit code from the same email into the app that asked for it.</p>")
        }
        let action = type == "recovery" ? "Continue to reset your password" : "Continue signing in"
        let escape = MailTemplate.escapeHTML
        return page(
            status: .ok, title: action,
            body: """
                <form method="post" action="verify">
                <input type="hidden" name="token" value="\(escape(token))">
                <input type="hidden" name="type" value="\(escape(type))">
                <input type="hidden" name="redirect_to" value="\(escape(redirectTo))">
                <button type="submit" style="font-size: 1.1rem; padding: 0.6rem 1.2rem">\(action)</button>
                </form>
                <p style="color: #444">The link works once. If you did not ask for it, close this page.</p>
                """)
    }

    /// The answer to the form posted from another site (login CSRF): nothing spent.
    static func refusedCrossSite() -> Response {
        page(
            status: .forbidden, title: "Open the link from your email",
            body: "<p>This sign-in was started by another website, so it was not completed. Open the link from your email again, or type its code into the app.</p>")
    }

    static func page(status: HTTPResponse.Status, title: String, body: String) -> Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="same-origin"><title>\(title)</title></head>
            <body style="font-family: system-ui, sans-serif; color: #111; max-width: 32rem; margin: 2rem auto; padding: 0 1rem">
            <h1 style="font-size: 1.3rem">\(title)</h1>
            \(body)
            </body></html>
            """
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                // same-origin, not no-referrer: the form's POST then carries this server's
                // Origin (no-referrer makes it "null", which a foreign page can send too);
                // the link's token still reaches no other site.
                HTTPField.Name("Referrer-Policy")!: "same-origin",
                // The page may be framed by nobody, and runs no script.
                HTTPField.Name("Content-Security-Policy")!: "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
