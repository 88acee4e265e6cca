import Foundation

/// The emails auth-server sends: a sign-in code with its link, a
/// password-reset code with its link, and a sign-up's confirmation code with its link.
///
/// Each part can be overridden by a file in the directory given to
/// `--mail-templates`: `magic_link.subject`, `magic_link.txt`,
/// `magic_link.html`, `recovery.subject`, `recovery.txt`, `recovery.html`,
/// `confirmation.subject`, `confirmation.txt`, `confirmation.html`,
/// `reauthentication.subject`, `reauthentication.txt`, `reauthentication.html`,
/// `email_change.subject`, `email_change.txt`, `email_change.html` (docs/EMAIL.md). A part without a file keeps the built-in text.
public struct MailTemplates: Sendable, Equatable {
    /// Which email.
    public enum Kind: String, Sendable, CaseIterable {
        case magicLink = "magic_link"
        case recovery
        /// GoTrue's name for the sign-up confirmation email.
        case confirmation
        /// The code `POST /reauthenticate` mails (GoTrue's name): proof before
        /// a sensitive change, with no link, since it signs nobody in.
        case reauthentication
        /// An email change's code and link, to the current and to the new address
        /// (GoTrue's name; docs/ACCOUNTS.md, "A confirmed email change (server)").
        case emailChange = "email_change"
    }

    public var magicLink: MailTemplate
    public var recovery: MailTemplate
    public var confirmation: MailTemplate
    public var reauthentication: MailTemplate
    public var emailChange: MailTemplate

    public subscript(kind: Kind) -> MailTemplate {
        switch kind {
        case .magicLink: magicLink
        case .recovery: recovery
        case .confirmation: confirmation
        case .reauthentication: reauthentication
        case .emailChange: emailChange
        }
    }

    /// The built-in emails.
    public static let builtIn: MailTemplates = {
        do {
            return try MailTemplates(directory: nil)
        } catch {
            preconditionFailure("The built-in templates parse: \(error)")
        }
    }()

    /// The built-in emails with the overrides found in `directory`.
    ///
    /// - Throws: ``ConfigurationError`` when the directory or a file cannot be
    ///   read, or a template does not parse.
    public init(directory: URL?) throws {
        func template(_ kind: Kind, subject: String, text: String, html: String) throws -> MailTemplate {
            func part(_ suffix: String, _ builtIn: String) throws -> String {
                guard let directory else { return builtIn }
                let file = directory.appendingPathComponent("\(kind.rawValue).\(suffix)")
                guard FileManager.default.fileExists(atPath: file.path) else { return builtIn }
                do {
                    return try String(contentsOf: file, encoding: .utf8)
                } catch {
                    throw ConfigurationError("Cannot read the mail template \(file.path): \(error.localizedDescription)")
                }
            }
            let subjectText = try part("subject", subject).trimmingCharacters(in: .whitespacesAndNewlines)
            return try MailTemplate(
                subject: subjectText, text: try part("txt", text), html: try part("html", html),
                source: directory.map { "\($0.path)/\(kind.rawValue)" } ?? "built-in \(kind.rawValue)")
        }
        if let directory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ConfigurationError("The mail templates directory \(directory.path) does not exist.")
            }
        }
        magicLink = try template(
            .magicLink, subject: "Your sign-in code: {{ .Token }}",
            text: """
                Your sign-in code is {{ .Token }}

                Type it in the app, or open this link on the device you are signing in on:
                {{ .ConfirmationURL }}

                The code works once and expires in a few minutes. If you did not ask for it, ignore this email.
                """,
            html: Self.html(
                heading: "Your sign-in code", action: "Sign in",
                ignore: "If you did not ask for it, ignore this email."))
        recovery = try template(
            .recovery, subject: "Reset your password",
            text: """
                Someone asked to reset the password of {{ .Email }}.

                Your reset code is {{ .Token }}
                Type it in the app, or open this link on the device you use:
                {{ .ConfirmationURL }}

                The code works once and expires in a few minutes. If it was not you, ignore this email: your password stays as it is.
                """,
            html: Self.html(
                heading: "Reset your password", action: "Choose a new password",
                ignore: "If it was not you, ignore this email: your password stays as it is."))
        confirmation = try template(
            .confirmation, subject: "Confirm your email: {{ .Token }}",
            text: """
                Someone created an account with {{ .Email }}.

                Your confirmation code is {{ .Token }}
                Type it in the app, or open this link on the device you signed up on:
                {{ .ConfirmationURL }}

                The code works once and expires in a few minutes. If it was not you, ignore this email: the account stays unconfirmed and cannot be signed in to with that password.
                """,
            html: Self.html(
                heading: "Confirm your email", action: "Confirm your email",
                ignore: "If it was not you, ignore this email: the account stays unconfirmed."))
        reauthentication = try template(
            .reauthentication, subject: "Confirm it is you: {{ .Token }}",
            text: """
                Someone signed in to {{ .Email }} asked to change the password, sign out every device or delete the account.

                Your confirmation code is {{ .Token }}
                Type it where you were asked for it. It works once and expires in a few minutes.

                If it was not you, do not share the code: someone may be signed in to your account. Change your password or sign out every device.
                """,
            html: """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>Confirm it is you</title></head>
                <body style="font-family: -apple-system, system-ui, sans-serif; color: #111; max-width: 32rem; margin: 0 auto; padding: 1rem">
                <h1 style="font-size: 1.25rem">Confirm it is you</h1>
                <p>Someone signed in to your account asked to change the password, sign out every device or delete the account. Your code is</p>
                <p style="font-size: 2rem; letter-spacing: 0.3rem; font-weight: 600">{{ .Token }}</p>
                <p style="color: #444">It works once and expires in a few minutes. If it was not you, do not share the code.</p>
                </body></html>
                """)
        emailChange = try template(
            .emailChange, subject: "Confirm your email change: {{ .Token }}",
            text: """
                Someone signed in to your account asked to change its email address to {{ .NewEmail }}.

                Your confirmation code is {{ .Token }}
                Type it in the app, or open this link:
                {{ .ConfirmationURL }}

                The address changes once every code sent for the change is confirmed (the current address's and the new one's). The code works once and expires in a few minutes. If it was not you, ignore this email: nothing changes.
                """,
            html: Self.html(
                heading: "Confirm your email change", action: "Confirm the change",
                ignore: "If it was not you, ignore this email: nothing changes."))
    }

    private static func html(heading: String, action: String, ignore: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(heading)</title></head>
        <body style="font-family: -apple-system, system-ui, sans-serif; color: #111; max-width: 32rem; margin: 0 auto; padding: 1rem">
        <h1 style="font-size: 1.25rem">\(heading)</h1>
        <p>Your code is</p>
        <p style="font-size: 2rem; letter-spacing: 0.3rem; font-weight: 600">{{ .Token }}</p>
        <p>Type it in the app, or <a href="{{ .ConfirmationURL }}">\(action.lowercased())</a> on the device you use.</p>
        <p style="color: #444">The code works once and expires in a few minutes. \(ignore)</p>
        </body></html>
        """
    }
}
