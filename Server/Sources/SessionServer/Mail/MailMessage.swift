/// One email: plain text always, HTML optional (then sent as multipart/alternative).
public struct MailMessage: Sendable, Equatable {
    public var from: MailAddress
    public var to: MailAddress
    /// Free text; line breaks are folded to spaces when rendered so they cannot start a header.
    public var subject: String
    public var text: String
    public var html: String?

    public init(from: MailAddress, to: MailAddress, subject: String, text: String, html: String? = nil) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
    }
}
