import Foundation

/// One email's subject, plain-text body and HTML body, with GoTrue's
/// placeholders (`{{ .Token }}`, `{{ .ConfirmationURL }}`, …), so templates
/// written for Supabase carry over.
///
/// Parsed once, when the server starts: an unknown placeholder is a
/// configuration error then, never a broken email later.
public struct MailTemplate: Sendable, Equatable {
    /// The values a template may use.
    public enum Placeholder: String, Sendable, CaseIterable {
        /// The six-digit code.
        case token = "Token"
        /// The link's secret, as `/verify` takes it in `token_hash`.
        case tokenHash = "TokenHash"
        /// The link that signs in (or starts the reset) when opened.
        case confirmationURL = "ConfirmationURL"
        /// The address the mail goes to.
        case email = "Email"
        /// This server's public root.
        case siteURL = "SiteURL"
        /// Where the app asked to be sent back to, if anywhere.
        case redirectTo = "RedirectTo"
        /// The address an email change moves to (GoTrue's `{{ .NewEmail }}`);
        /// in that email, `{{ .Email }}` is the current address, empty for an anonymous user.
        case newEmail = "NewEmail"
    }

    enum Part: Sendable, Equatable {
        case literal(String)
        case value(Placeholder)
    }

    let subject: [Part]
    let text: [Part]
    let html: [Part]

    /// - Throws: ``ConfigurationError`` naming `source` and the placeholder it does not know, or
    ///   saying that the plain-text body shows neither the code nor the link.
    public init(subject: String, text: String, html: String, source: String) throws {
        self.subject = try Self.parse(subject, source: "\(source) (subject)")
        self.text = try Self.parse(text, source: "\(source) (text)")
        self.html = try Self.parse(html, source: "\(source) (HTML)")
        guard self.text.contains(.value(.token)) || self.text.contains(.value(.confirmationURL)) else {
            throw ConfigurationError(
                "\(source): the plain-text body shows neither {{ .Token }} nor {{ .ConfirmationURL }}, so nobody could use the email.")
        }
        if self.subject.contains(where: { if case .literal(let s) = $0 { s.contains(where: \.isNewline) } else { false } }) {
            throw ConfigurationError("\(source): the subject must be one line.")
        }
    }

    /// The subject, text and HTML with `values` filled in; HTML-escaped in the HTML body.
    func render(_ values: [Placeholder: String]) -> (subject: String, text: String, html: String) {
        func fill(_ parts: [Part], escape: (String) -> String) -> String {
            parts.map { part in
                switch part {
                case .literal(let text): text
                case .value(let name): escape(values[name] ?? "")
                }
            }.joined()
        }
        // The subject is a header: a value with a newline must not start another one.
        let subject = fill(subject) { $0.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ") }
        return (subject, fill(text) { $0 }, fill(html, escape: Self.escapeHTML))
    }

    static func escapeHTML(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Splits `template` at each `{{ .Name }}` (spaces optional).
    static func parse(_ template: String, source: String) throws -> [Part] {
        var parts: [Part] = []
        var rest = Substring(template)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { parts.append(.literal(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw ConfigurationError("\(source): a '{{' is never closed with '}}'.")
            }
            let inside = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            guard inside.hasPrefix("."), let name = Placeholder(rawValue: String(inside.dropFirst())) else {
                let known = Placeholder.allCases.map { "{{ .\($0.rawValue) }}" }.joined(separator: ", ")
                throw ConfigurationError("\(source): unknown placeholder '{{ \(inside.prefix(40)) }}'; use one of \(known).")
            }
            parts.append(.value(name))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        return parts
    }
}
