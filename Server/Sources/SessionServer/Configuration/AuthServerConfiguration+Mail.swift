import Foundation
import Logging

extension AuthServerConfiguration {
    /// Mail delivery from `--smtp-url` (env `AUTH_SERVER_SMTP_URL`), `--mail-from`
    /// (`AUTH_SERVER_MAIL_FROM`), `--mail-templates` (`AUTH_SERVER_MAIL_TEMPLATES`)
    /// and `--smtp-ca-file` (`AUTH_SERVER_SMTP_CA_FILE`); docs/EMAIL.md.
    ///
    /// - Throws: ``ConfigurationError`` when the URL, the sender or a template
    ///   is not usable, or one of `--smtp-url` and `--mail-from` comes without the other.
    mutating func resolveMail(_ flags: ConfigurationOverrides, environment: [String: String]) throws {
        let url = flags.smtpURL ?? environment["AUTH_SERVER_SMTP_URL"]
        let from = flags.mailFrom ?? environment["AUTH_SERVER_MAIL_FROM"]
        guard let url else {
            if from != nil { throw ConfigurationError("--mail-from needs --smtp-url (AUTH_SERVER_SMTP_URL) to send with.") }
            return
        }
        guard let from else {
            throw ConfigurationError("--smtp-url needs --mail-from (AUTH_SERVER_MAIL_FROM), e.g. 'Example <auth@example.com>'.")
        }
        do {
            var smtp = try SMTPConfiguration(url: url)
            smtp.trustRootsPEMFile = flags.smtpCAFile ?? environment["AUTH_SERVER_SMTP_CA_FILE"]
            let templates = try MailTemplates(
                directory: (flags.mailTemplates ?? environment["AUTH_SERVER_MAIL_TEMPLATES"]).map { URL(fileURLWithPath: $0) })
            mail = MailConfiguration(
                transport: SMTPTransport(configuration: smtp, logger: Logger(label: "auth-server.mail")),
                sender: try Self.sender(parsing: from), templates: templates)
        } catch let error as MailError {
            throw ConfigurationError(error.description)
        }
    }

    /// `auth@example.com` or `Example <auth@example.com>`.
    static func sender(parsing text: String) throws -> MailAddress {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") else { return try MailAddress(trimmed) }
        let name = trimmed[..<open].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
        let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        return try MailAddress(address, name: name.isEmpty ? nil : name)
    }
}
