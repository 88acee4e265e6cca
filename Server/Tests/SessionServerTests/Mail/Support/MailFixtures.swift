import Foundation
import Logging
import Testing
@testable import SessionServer

/// Messages and helpers shared by the mail tests.
enum MailFixtures {
    static let logger = Logger(label: "mail-tests")

    /// Non-ASCII everywhere, a lone "." line (which would end DATA early if not stuffed) and
    /// a line starting with ".", so a delivery that mangles any of them shows.
    static func tricky(to recipient: String = "bob@example.com") throws -> MailMessage {
        try MailMessage(
            from: MailAddress("noreply@sessionkit.test", name: "SessionKit Ålerts"),
            to: MailAddress(recipient, name: "Bob"),
            subject: "Grüße — your code is ready ✓",
            text: "Hello Bob,\n.\n.hidden line stays\nCode: 123 456 = café\n\nBye ",
            html: "<p>Hello <b>Bob</b>,</p>\n.\n<p>Code: 123&nbsp;456 — café</p>"
        )
    }

    static func plain(to recipient: String = "bob@example.com") throws -> MailMessage {
        try MailMessage(
            from: MailAddress("noreply@sessionkit.test"), to: MailAddress(recipient),
            subject: "Hello", text: "Just text."
        )
    }

    /// Sends and returns the error, or nil on success; fails the test on a non-MailError.
    static func sendError(_ transport: SMTPTransport, _ message: MailMessage) async -> MailError? {
        do {
            try await transport.send(message)
            return nil
        } catch let error as MailError {
            return error
        } catch {
            Issue.record("expected a MailError, got \(error)")
            return nil
        }
    }
}
