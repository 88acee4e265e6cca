import Foundation

extension MailMessage {
    /// The message as it goes after SMTP `DATA` (before dot-stuffing): CRLF line endings,
    /// 7-bit only, every line within 78 characters (headers) or 76 (bodies), ending in CRLF.
    ///
    /// Pure so it can be tested byte for byte: the caller passes the date and Message-ID.
    /// No header value can contain a line break, so no input can add a header.
    public func rendered(date: Date, messageID: String) -> String {
        let identifier = String(String.UnicodeScalarView(messageID.unicodeScalars.filter {
            $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && $0 != "<" && $0 != ">"
        }))
        var output = [
            "Date: " + RFC5322Date.string(from: date),
            "From: " + Self.headerValue(for: from),
            "To: " + Self.headerValue(for: to),
            "Subject: " + Self.subjectValue(subject),
            "Message-ID: <\(identifier)>",
            "MIME-Version: 1.0",
        ].joined(separator: "\r\n") + "\r\n"

        guard let html else { return output + Self.part(text, type: "text/plain") }
        // "=_" cannot occur in quoted-printable or base64 output, so no body can contain the boundary.
        let boundary = "=_SessionKit_" + identifier.filter { $0.isLetter || $0.isNumber }
        output += "Content-Type: multipart/alternative; boundary=\"\(boundary)\"\r\n\r\n"
        output += "--\(boundary)\r\n" + Self.part(text, type: "text/plain")
        output += "--\(boundary)\r\n" + Self.part(html, type: "text/html")
        return output + "--\(boundary)--\r\n"
    }

    /// Content headers, a blank line and the encoded body, ending in CRLF.
    private static func part(_ body: String, type: String) -> String {
        let base64 = MIMEEncoding.prefersBase64(body)
        let encoded = base64 ? MIMEEncoding.base64Lines(body) : MIMEEncoding.quotedPrintable(body)
        return "Content-Type: \(type); charset=utf-8\r\n"
            + "Content-Transfer-Encoding: \(base64 ? "base64" : "quoted-printable")\r\n\r\n"
            + encoded + "\r\n"
    }

    private static func subjectValue(_ subject: String) -> String {
        let line = MIMEEncoding.singleLine(subject)
        return MIMEEncoding.isPlainHeaderText(line, maximumLength: 78 - "Subject: ".count)
            ? line : MIMEEncoding.encodedWords(line)
    }

    private static func headerValue(for mailbox: MailAddress) -> String {
        guard let name = mailbox.name.map(MIMEEncoding.singleLine) else { return mailbox.address }
        guard MIMEEncoding.isPlainHeaderText(name, maximumLength: 60) else {
            let words = MIMEEncoding.encodedWords(name)
            // The address goes on a line of its own when it would push the last word's line past 78.
            let lastLine = words.components(separatedBy: "\r\n").last ?? ""
            let fits = "From: ".count + lastLine.count + mailbox.address.count + 3 <= 78
            return words + (fits ? " " : "\r\n ") + "<\(mailbox.address)>"
        }
        // A quoted string keeps commas and other specials in a name from splitting the mailbox.
        let quoted = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(quoted)\" <\(mailbox.address)>"
    }
}
