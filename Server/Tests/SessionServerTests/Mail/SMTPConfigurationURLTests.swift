import Foundation
import Testing
@testable import SessionServer

@Suite("SMTP URLs")
struct SMTPConfigurationURLTests {
    @Test func smtpIsRequiredSTARTTLSOnPort587() throws {
        let configuration = try SMTPConfiguration(url: "smtp://mailer:s3cret@mail.example.com")
        #expect(configuration.security == .startTLS)
        #expect(configuration.host == "mail.example.com")
        #expect(configuration.port == 587)
        #expect(configuration.username == "mailer")
        #expect(configuration.password == "s3cret")
        #expect(configuration.heloName == "localhost")
        #expect(configuration.timeout == .seconds(30))
        #expect(try SMTPConfiguration(url: "SMTP://mail.example.com:2525").port == 2525)
    }

    @Test func smtpsIsImplicitTLSOnPort465() throws {
        let configuration = try SMTPConfiguration(url: "smtps://u:p@smtp.example.org")
        #expect(configuration.security == .implicitTLS)
        #expect(configuration.port == 465)
        #expect(try SMTPConfiguration(url: "smtps://smtp.example.org:4650").port == 4650)
    }

    @Test func credentialsArePercentDecoded() throws {
        let configuration = try SMTPConfiguration(url: "smtp://us%40er:p%3As%2Fs%40w%25rd@mail.example.com:25")
        #expect(configuration.username == "us@er")
        #expect(configuration.password == "p:s/s@w%rd")
        #expect(configuration.port == 25)
    }

    @Test(arguments: ["127.0.0.1", "localhost", "[::1]", "127.0.0.2"])
    func plainWithCredentialsOnlyToLoopback(host: String) throws {
        let configuration = try SMTPConfiguration(url: "smtp://u:p@\(host):2525?tls=none")
        #expect(configuration.security == .none)
        #expect(configuration.port == 2525)
        #expect(configuration.host == host.trimmingCharacters(in: ["[", "]"]))
    }

    @Test func plainWithCredentialsOffLoopbackIsRefused() throws {
        let error = #expect(throws: MailError.self) {
            try SMTPConfiguration(url: "smtp://u:p@mail.example.com:25?tls=none")
        }
        #expect(error?.kind == .invalidURL)
        #expect(error?.message.contains("in clear") == true)
        #expect(try SMTPConfiguration(url: "smtp://relay.internal:25?tls=none").security == .none)
    }

    @Test(arguments: [
        "", "mail.example.com", "http://mail.example.com", "smtp://", "smtp://:25", "smtp://host:0",
        "smtp://host:70000", "smtp://host:abc", "smtp://user@host", "smtp://:pw@host", "smtp://host?tls=bogus",
        "smtps://host?tls=none", "smtp://host/path", "smtp://a b", "smtp://host#x", "smtp://::1:25",
        "smtp://u:p%zz@host",
    ])
    func garbageIsATypedErrorSayingWhatToWrite(_ url: String) {
        do {
            _ = try SMTPConfiguration(url: url)
            Issue.record("\(url) was accepted")
        } catch {
            #expect(error.kind == .invalidURL)
            #expect(error.message.contains("smtp://user:password@host:587"))
        }
    }

    @Test func passwordsStayOutOfErrorsAndDescriptions() throws {
        let error = #expect(throws: MailError.self) { try SMTPConfiguration(url: "smtp://u:hunter2@host:99999") }
        #expect(error?.description.contains("hunter2") == false)
        let configuration = try SMTPConfiguration(url: "smtp://u:hunter2@host")
        #expect(!configuration.description.contains("hunter2"))
        #expect(!String(describing: configuration).contains("hunter2"))
    }
}
