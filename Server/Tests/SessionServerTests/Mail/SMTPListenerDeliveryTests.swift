import Foundation
import Testing
@testable import SessionServer

/// Against a real SMTP server (aiosmtpd, via scripts/smtp-listener.py); each delivered
/// message is decoded by Python's email package and compared field by field.
@Suite("SMTP delivery to a real server")
struct SMTPListenerDeliveryTests {
    private func transport(
        port: Int, security: SMTPConfiguration.Security, host: String = "127.0.0.1",
        credentials: (String, String)? = nil, trust certificate: TestCertificate? = nil
    ) -> SMTPTransport {
        // A generous deadline: a Python listener on a loaded two-core CI machine
        // once took over 5 s to answer. These tests prove outcomes, not speed.
        SMTPTransport(
            configuration: SMTPConfiguration(
                host: host, port: port, security: security, username: credentials?.0, password: credentials?.1,
                trustRootsPEMFile: certificate?.certificatePath, timeout: .seconds(30)
            ),
            logger: MailFixtures.logger
        )
    }

    private func expectDelivered(_ message: MailMessage, by listener: SMTPListener) async throws {
        let file = try #require(try await listener.waitForMessage(to: message.to.address))
        let delivered = try await DeliveredMail.parse(file)
        #expect(delivered.mismatches(with: message) == [])
        #expect(delivered.envelopeTo == message.to.address)
    }

    /// Found when stopped listeners outlived their tests: a child of the test
    /// runner starts with SIGTERM blocked, and the listener must unblock it.
    @Test func theListenerEndsWhenStopped() async throws {
        let listener = try await SMTPListener.start()
        listener.stop()
        for _ in 0..<200 where listener.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!listener.isRunning)
    }

    @Test func plainDeliveryOnLoopbackKeepsEveryPartIntact() async throws {
        let listener = try await SMTPListener.start()
        defer { listener.stop() }
        let message = try MailFixtures.tricky()
        try await transport(port: listener.port, security: .none).send(message)
        try await expectDelivered(message, by: listener)
        #expect(listener.messages().count == 1)
    }

    @Test func startTLSWithTrustedSelfSignedCertificateAndAuth() async throws {
        let directory = try MailTestPaths.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try await TestCertificate.make(in: directory)
        let listener = try await SMTPListener.start(certificate: certificate, auth: "mailer:s3cr:et")
        defer { listener.stop() }
        let message = try MailFixtures.tricky(to: "tls@example.com")
        for host in ["localhost", "127.0.0.1"] {  // name and IP address checks both pass
            try await transport(
                port: listener.port, security: .startTLS, host: host, credentials: ("mailer", "s3cr:et"), trust: certificate
            ).send(message)
        }
        try await expectDelivered(message, by: listener)
        #expect(listener.messages().count == 2)
    }

    @Test func untrustedCertificateIsTLSFailedAndNothingIsSent() async throws {
        let directory = try MailTestPaths.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try await TestCertificate.make(in: directory)
        let listener = try await SMTPListener.start(certificate: certificate)
        defer { listener.stop() }
        let error = await MailFixtures.sendError(
            transport(port: listener.port, security: .startTLS, host: "localhost"), try MailFixtures.plain()
        )
        #expect(error?.kind == .tlsFailed, "\(String(describing: error))")
        #expect(error?.isTransient == false)
        #expect(listener.messages().isEmpty)
    }

    @Test func requiredSTARTTLSMissingIsTLSUnavailable() async throws {
        let listener = try await SMTPListener.start()
        defer { listener.stop() }
        let error = await MailFixtures.sendError(
            transport(port: listener.port, security: .startTLS, credentials: ("u", "p")), try MailFixtures.plain()
        )
        #expect(error?.kind == .tlsUnavailable)
        #expect(error?.isTransient == false)
        try await Task.sleep(for: .milliseconds(100))
        #expect(listener.messages().isEmpty)
    }

    @Test func wrongPasswordIsAuthenticationFailed() async throws {
        let directory = try MailTestPaths.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try await TestCertificate.make(in: directory)
        let listener = try await SMTPListener.start(certificate: certificate, auth: "mailer:right")
        defer { listener.stop() }
        let error = await MailFixtures.sendError(
            transport(port: listener.port, security: .startTLS, host: "localhost", credentials: ("mailer", "wrong"),
                      trust: certificate),
            try MailFixtures.plain()
        )
        #expect(error?.kind == .authenticationFailed)
        #expect(error?.replyCode == 535)
        #expect(error?.isTransient == false)
        #expect(error?.description.contains("wrong") == false)
        #expect(listener.messages().isEmpty)
    }

    @Test func authInClearIsAllowedToLoopback() async throws {
        let listener = try await SMTPListener.start(auth: "relay:pw")
        defer { listener.stop() }
        let message = try MailFixtures.plain(to: "loop@example.com")
        try await transport(port: listener.port, security: .none, credentials: ("relay", "pw")).send(message)
        try await expectDelivered(message, by: listener)
    }

    /// The check above must fail when content is lost: files holding a message without its
    /// body, or without the lone "." line that dot-stuffing protects, are caught.
    @Test func contentCheckCatchesAMangledDelivery() async throws {
        let listener = try await SMTPListener.start()
        defer { listener.stop() }
        let message = try MailFixtures.tricky()
        let rendered = message.rendered(date: Date(), messageID: "m@x")
        let headersOnly = rendered.components(separatedBy: "\r\n\r\n")[0] + "\r\n\r\n"
        var lostDotLine = message
        lostDotLine.text = message.text.replacingOccurrences(of: "\n.\n", with: "\n")
        let forged = [headersOnly, lostDotLine.rendered(date: Date(), messageID: "m@x")]
        for (index, text) in forged.enumerated() {
            let file = listener.maildir.appendingPathComponent("forged-\(index).eml")
            try FileManager.default.createDirectory(at: listener.maildir, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            let problems = try await DeliveredMail.parse(file).mismatches(with: message)
            #expect(!problems.isEmpty, "forged message \(index) passed the check")
        }
    }
}
