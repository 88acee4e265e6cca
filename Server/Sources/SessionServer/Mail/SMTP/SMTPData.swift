import Foundation

/// The DATA phase's framing (RFC 5321 §4.5.2), kept apart from rendering so the rendered
/// message stays exactly what the recipient will see.
enum SMTPData {
    /// `message` with every line that starts with "." given a second ".", CRLF line endings,
    /// and the terminating `.` line, so no content can end DATA early.
    static func payload(for message: String) -> String {
        let normalized = message.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        var payload = ""
        for line in lines {
            if line.hasPrefix(".") { payload += "." }
            payload += line + "\r\n"
        }
        return payload + ".\r\n"
    }
}
