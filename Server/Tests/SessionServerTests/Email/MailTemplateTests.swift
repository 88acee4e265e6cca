import Foundation
import Testing
@testable import SessionServer

/// Templates with GoTrue's placeholders: parsed at start, escaped in HTML,
/// overridden per file; a broken template stops the server from starting.
struct MailTemplateTests {
    @Test func valuesAreFilledAndEscapedInHTMLOnly() throws {
        let template = try MailTemplate(
            subject: "Code {{ .Token }}", text: "{{.Token}} for {{ .Email }}", html: "<p>{{ .Email }}</p>", source: "test")
        let (subject, text, html) = template.render([.token: "123456", .email: "a<b>&\"c'@example.com"])
        #expect(subject == "Code 123456")
        #expect(text == "123456 for a<b>&\"c'@example.com")
        #expect(html == "<p>a&lt;b&gt;&amp;&quot;c&#39;@example.com</p>")
        // A value with a line break cannot add a header through the subject.
        let injected = try MailTemplate(subject: "{{ .Email }}", text: "{{ .Token }}", html: "", source: "test")
        #expect(!injected.render([.email: "x\r\nBcc: evil@example.com"]).subject.contains("\n"))
    }

    @Test func unknownPlaceholdersAndUselessTextAreConfigurationErrors() {
        #expect(throws: ConfigurationError.self) {
            try MailTemplate(subject: "s", text: "{{ .Tokn }}", html: "", source: "test")
        }
        #expect(throws: ConfigurationError.self) { try MailTemplate(subject: "s", text: "{{ .Token ", html: "", source: "test") }
        #expect(throws: ConfigurationError.self) { try MailTemplate(subject: "s", text: "no code here", html: "", source: "test") }
        #expect(throws: ConfigurationError.self) {
            try MailTemplate(subject: "two\nlines", text: "{{ .Token }}", html: "", source: "test")
        }
    }

    @Test func filesOverrideTheirPartOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "Ihr Code: {{ .Token }}\n".write(to: directory.appendingPathComponent("magic_link.subject"), atomically: true, encoding: .utf8)
        try "Code {{ .Token }} — {{ .ConfirmationURL }}".write(
            to: directory.appendingPathComponent("recovery.txt"), atomically: true, encoding: .utf8)
        let templates = try MailTemplates(directory: directory)
        #expect(templates.magicLink.render([.token: "111222"]).subject == "Ihr Code: 111222")
        #expect(templates.magicLink.text == MailTemplates.builtIn.magicLink.text)
        #expect(templates.recovery.render([.token: "1", .confirmationURL: "u"]).text == "Code 1 — u")
        #expect(templates.recovery.subject == MailTemplates.builtIn.recovery.subject)

        try "{{ .Nope }}".write(to: directory.appendingPathComponent("recovery.html"), atomically: true, encoding: .utf8)
        let error = #expect(throws: ConfigurationError.self) { try MailTemplates(directory: directory) }
        #expect(error?.description.contains("recovery") == true)
        #expect(throws: ConfigurationError.self) { try MailTemplates(directory: directory.appendingPathComponent("missing")) }
    }

    @Test func mailSettingsComeTogetherOrNotAtAll() throws {
        #expect(try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: [:]).mail == nil)
        let configured = try AuthServerConfiguration.resolve(
            ConfigurationOverrides(smtpURL: "smtp://u:p@mail.example.com", mailFrom: "Example <auth@example.com>"), environment: [:])
        #expect(configured.mail?.sender.address == "auth@example.com")
        #expect(configured.mail?.sender.name == "Example")
        for (url, from) in [
            ("smtp://mail.example.com", nil), (nil, "auth@example.com"), ("http://mail.example.com", "auth@example.com"),
            ("smtp://u:p@mail.example.com?tls=none", "auth@example.com"), ("smtp://mail.example.com", "not an address"),
        ] as [(String?, String?)] {
            #expect(throws: ConfigurationError.self, "\(url ?? "-") \(from ?? "-")") {
                try AuthServerConfiguration.resolve(ConfigurationOverrides(smtpURL: url, mailFrom: from), environment: [:])
            }
        }
        let fromEnvironment = try AuthServerConfiguration.resolve(
            ConfigurationOverrides(),
            environment: ["AUTH_SERVER_SMTP_URL": "smtps://mail.example.com", "AUTH_SERVER_MAIL_FROM": "auth@example.com"])
        #expect(fromEnvironment.mail != nil)
    }
}
