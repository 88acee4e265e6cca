import Foundation
import NIOCore
import Testing
@testable import SessionServer

/// Against a scripted server that breaks the protocol one way at a time: each failure must
/// come back as the right typed error, promptly, with the channel closed.
@Suite("SMTP against misbehaving servers")
struct SMTPMisbehavingServerTests {
    private func transport(
        _ server: ScriptedSMTPServer, security: SMTPConfiguration.Security = .none,
        credentials: (String, String)? = nil, timeout: Duration = .seconds(30)
    ) -> SMTPTransport {
        // 30 s unless a test is about the timeout: CI runs these beside about
        // 50 servers on 2 cores, and once a scripted EHLO answer took over 5 s.
        SMTPTransport(
            configuration: SMTPConfiguration(
                host: "127.0.0.1", port: server.port, security: security,
                username: credentials?.0, password: credentials?.1, timeout: timeout
            ),
            logger: MailFixtures.logger
        )
    }

    /// The control: with the standard script the same harness delivers, so the failures below
    /// come from the scripted fault, not from the harness.
    @Test func wellBehavedScriptDelivers() async throws {
        let server = try await ScriptedSMTPServer()
        let message = try MailFixtures.tricky()
        try await transport(server).send(message)
        await server.stop()
        let lines = server.receivedLines
        #expect(lines.first == "EHLO localhost")
        #expect(lines.contains("MAIL FROM:<noreply@sessionkit.test>"))
        #expect(lines.contains("RCPT TO:<bob@example.com>"))
        #expect(lines.contains(".."))  // the lone "." line of the text, stuffed
        #expect(lines.suffix(2) == [".", "QUIT"])
    }

    @Test func greeting421IsTransient() async throws {
        let server = try await ScriptedSMTPServer(greeting: [.reply("421 too busy, try later"), .close])
        let error = await MailFixtures.sendError(transport(server), try MailFixtures.plain())
        #expect(error?.kind == .temporaryFailure)
        #expect(error?.replyCode == 421)
        #expect(error?.isTransient == true)
        await server.stop()
    }

    @Test func recipient550IsPermanent() async throws {
        let server = try await ScriptedSMTPServer { $0.hasPrefix("RCPT") ? [.reply("550 5.1.1 no such user")] : nil }
        let error = await MailFixtures.sendError(transport(server), try MailFixtures.plain())
        #expect(error?.kind == .rejected)
        #expect(error?.replyCode == 550)
        #expect(error?.isTransient == false)
        #expect(error?.message.contains("no such user") == true)
        await server.stop()
    }

    @Test func connectionClosedDuringDataIsConnectionFailed() async throws {
        let server = try await ScriptedSMTPServer { $0 == "DATA" ? [.reply("354 go ahead"), .close] : nil }
        let error = await MailFixtures.sendError(transport(server), try MailFixtures.tricky())
        #expect(error?.kind == .connectionFailed)
        #expect(error?.isTransient == true)
        await server.stop()
    }

    @Test func silentServerTimesOut() async throws {
        let server = try await ScriptedSMTPServer(greeting: [])
        // The kind proves the deadline fired: without one the send would wait forever.
        // No wall-clock bound: on a loaded CI machine it flaked.
        let error = await MailFixtures.sendError(
            transport(server, timeout: .milliseconds(300)), try MailFixtures.plain()
        )
        #expect(error?.kind == .timeout)
        #expect(error?.isTransient == true)
        await server.stop()
    }

    @Test func serverThatStopsReadingTimesOutTheWrite() async throws {
        let server = try await ScriptedSMTPServer(stallsInData: true)
        var message = try MailFixtures.plain()
        message.text = String(repeating: "é", count: 3_000_000)  // 6 MB: more than both socket buffers hold
        let error = await MailFixtures.sendError(transport(server, timeout: .milliseconds(500)), message)
        #expect(error?.kind == .timeout, "\(String(describing: error))")
        #expect(error?.message.contains("stopped reading") == true)  // the write's deadline, not a reply's
        await server.stop()
    }

    @Test func garbledReplyIsProtocolViolation() async throws {
        let server = try await ScriptedSMTPServer(greeting: [.reply("hello")])
        let error = await MailFixtures.sendError(transport(server), try MailFixtures.plain())
        #expect(error?.kind == .protocolViolation)
        #expect(error?.isTransient == false)
        await server.stop()
    }

    @Test func fiveMegabyteReplyLineIsProtocolViolation() async throws {
        let huge = ByteBuffer(repeating: UInt8(ascii: "2"), count: 5_000_000)
        let server = try await ScriptedSMTPServer(greeting: [.raw(huge), .reply("")])
        let error = await MailFixtures.sendError(transport(server), try MailFixtures.plain())
        #expect(error?.kind == .protocolViolation)
        // Refused at the 4 KiB limit, before the rest of the line was buffered.
        #expect(error?.message.contains("longer than 4096") == true)
        await server.stop()
    }

    @Test func tooManyReplyLinesIsProtocolViolation() async throws {
        let server = try await ScriptedSMTPServer {
            $0.hasPrefix("EHLO") ? Array(repeating: .reply("250-padding"), count: 150) + [.reply("250 end")] : nil
        }
        let error = await MailFixtures.sendError(transport(server), try MailFixtures.plain())
        #expect(error?.kind == .protocolViolation)
        await server.stop()
    }

    @Test func ehloRefusedFallsBackToHelo() async throws {
        let server = try await ScriptedSMTPServer { $0.hasPrefix("EHLO") ? [.reply("502 not implemented")] : nil }
        try await transport(server).send(try MailFixtures.plain())
        await server.stop()
        #expect(server.receivedLines.prefix(2) == ["EHLO localhost", "HELO localhost"])
    }

    @Test func authLoginWhenOnlyLoginIsOffered() async throws {
        let server = try await ScriptedSMTPServer { line in
            switch line {
            case let ehlo where ehlo.hasPrefix("EHLO"): [.reply("250-scripted"), .reply("250 AUTH LOGIN")]
            case "AUTH LOGIN": [.reply("334 VXNlcm5hbWU6")]
            case "bWFpbGVy": [.reply("334 UGFzc3dvcmQ6")]  // "mailer"
            case "c2VjcmV0": [.reply("235 2.7.0 accepted")]  // "secret"
            default: nil
            }
        }
        try await transport(server, credentials: ("mailer", "secret")).send(try MailFixtures.plain())
        await server.stop()
        #expect(server.receivedLines.contains("MAIL FROM:<noreply@sessionkit.test>"))
    }

    /// Plaintext queued behind the STARTTLS reply must not be taken as the answer over TLS.
    @Test func dataInjectedAfterSTARTTLSIsProtocolViolation() async throws {
        let server = try await ScriptedSMTPServer { line in
            switch line {
            case let ehlo where ehlo.hasPrefix("EHLO"): [.reply("250-scripted"), .reply("250 STARTTLS")]
            case "STARTTLS": [.raw(ByteBuffer(string: "220 go ahead\r\n250-injected\r\n250 AUTH PLAIN\r\n"))]
            default: nil
            }
        }
        let error = await MailFixtures.sendError(transport(server, security: .startTLS), try MailFixtures.plain())
        #expect(error?.kind == .protocolViolation)
        await server.stop()
    }

    @Test func implicitTLSToAPlainServerIsTLSFailed() async throws {
        let server = try await ScriptedSMTPServer()
        let error = await MailFixtures.sendError(transport(server, security: .implicitTLS), try MailFixtures.plain())
        #expect(error?.kind == .tlsFailed, "\(String(describing: error))")
        await server.stop()
    }

    @Test func refusedConnectionIsTransient() async throws {
        let server = try await ScriptedSMTPServer()
        await server.stop()
        let error = await MailFixtures.sendError(transport(server), try MailFixtures.plain())
        #expect(error?.kind == .connectionFailed)
        #expect(error?.isTransient == true)
    }
}
