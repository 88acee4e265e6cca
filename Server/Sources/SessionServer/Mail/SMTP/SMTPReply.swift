/// One complete server reply: a code and its text lines (one per `250-…` continuation).
struct SMTPReply: Sendable, Equatable {
    var code: Int
    var lines: [String]

    var text: String { lines.joined(separator: " ") }
    var isPositive: Bool { (200..<300).contains(code) }
    var isIntermediate: Bool { (300..<400).contains(code) }

    /// The error this reply means when it was not the answer the client needed:
    /// 4xx asks to retry later, 5xx refuses for good, anything else is nonsense at that step.
    func error(host: String, during step: String) -> MailError {
        switch code {
        case 400..<500: .temporaryFailure(code: code, text: "\(step): \(text)")
        case 500..<600: .rejected(code: code, text: "\(step): \(text)")
        default: .protocolViolation(host: host, "unexpected reply \(code) to \(step)")
        }
    }
}
