import Foundation

/// How auth-server sends email: the transport (SMTP, or a test's own), the
/// sender and the templates. Without one, email codes, links and password
/// resets answer `email_provider_disabled` (docs/EMAIL.md).
public struct MailConfiguration: Sendable {
    /// Sends each message (``SMTPTransport`` in production).
    public var transport: any MailTransport
    /// The `From` of every message (`--mail-from`).
    public var sender: MailAddress
    /// The messages' text.
    public var templates: MailTemplates
    /// Seconds to wait before each retry of a transiently failed message.
    public var retryDelays: [TimeInterval]

    public init(
        transport: any MailTransport, sender: MailAddress, templates: MailTemplates = .builtIn,
        retryDelays: [TimeInterval] = [2, 10, 60]
    ) {
        self.transport = transport
        self.sender = sender
        self.templates = templates
        self.retryDelays = retryDelays
    }
}
