import Foundation
import HummingbirdTesting
import SessionCore
import SessionKit
import SessionKitTesting
import Testing
@testable import SessionServer

/// The SDK against a live auth-server whose mail goes over STARTTLS with
/// AUTH to a real SMTP server (aiosmtpd): each flow is completed with the code
/// read from the delivered message, as a person would read it.
struct EmailOverSMTPTests {
    static func withStack(
        _ body: @escaping @Sendable (TestServer, SessionClient, SMTPListener) async throws -> Void
    ) async throws {
        let directory = try MailTestPaths.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try await TestCertificate.make(in: directory)
        let listener = try await SMTPListener.start(certificate: certificate, auth: "mailer:mail-pass")
        defer { listener.stop() }
        var smtp = try SMTPConfiguration(url: "smtp://mailer:mail-pass@localhost:\(listener.port)")
        smtp.trustRootsPEMFile = certificate.certificatePath
        let transport = SMTPTransport(configuration: smtp, logger: MailFixtures.logger)
        let test = try await TestServer.make {
            $0.mail = MailConfiguration(transport: transport, sender: try! MailAddress("auth@example.com"), retryDelays: [])
        }
        try await test.runLive { client in
            let port = try #require(client.port)
            let sdk = test.sdkClient(port: port)
            try await body(test, sdk, listener)
        }
    }

    /// The code in the newest message to `address`, read by an independent MIME parser.
    static func code(to address: String, from listener: SMTPListener, skipping seen: Int = 0) async throws -> (String, DeliveredMail) {
        for _ in 0..<200 {
            let files = listener.messageFiles()
            if files.count > seen, let file = files.last {
                let mail = try await DeliveredMail.parse(file)
                #expect(mail.envelopeTo == address)
                #expect(mail.defects == 0)
                let code = try #require(mail.text?.split(whereSeparator: { !$0.isNumber }).first { $0.count == 6 })
                #expect(mail.html?.contains(String(code)) == true)
                return (String(code), mail)
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw UnexpectedResponse(description: "no mail reached the SMTP server")
    }

    @Test func signInWithACodeThenResetThePassword() async throws {
        try await Self.withStack { test, sdk, listener in
            try await sdk.sendEmailCode(to: "ada@example.com")
            let (code, mail) = try await Self.code(to: "ada@example.com", from: listener)
            #expect(mail.subject == "Your sign-in code: \(code)")
            let session = try await sdk.verifyEmailCode(email: "ada@example.com", code: code)
            #expect(session.user?.email == "ada@example.com")
            await #expect(throws: SessionError.codeInvalid) { try await sdk.verifyEmailCode(email: "ada@example.com", code: code) }

            await test.clock.advance(by: 61)
            try await sdk.sendPasswordReset(to: "ada@example.com")
            let (reset, resetMail) = try await Self.code(to: "ada@example.com", from: listener, skipping: 1)
            #expect(resetMail.subject == "Reset your password")
            let after = try await sdk.completePasswordReset(email: "ada@example.com", code: reset, newPassword: "a-new-password")
            #expect(sdk.currentState == .signedIn(after))
            // The first session was signed out by the change; the new password signs in.
            #expect(try await test.server.store.session(id: try #require(session.sessionID))?.isRevoked == true)
            try await sdk.signOut()
            #expect(try await sdk.signIn(email: "ada@example.com", password: "a-new-password").user?.email == "ada@example.com")
        }
    }
}
