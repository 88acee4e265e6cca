import Foundation

extension SMTPSession {
    /// AUTH PLAIN, or LOGIN when that is all the server offers (RFC 4954).
    func authenticate(username: String, password: String, extensions: [String: [String]]) async throws {
        // Checked against the peer actually reached, not the configured name, so a
        // misconfigured or spoofed name cannot carry the password over a network in clear.
        guard connection.isEncrypted || connection.peerIsLoopback else {
            throw MailError.invalidConfiguration(
                "refusing to send the password to \(connection.host) without TLS; use smtp:// (STARTTLS) or smtps://"
            )
        }
        let mechanisms = Set((extensions["AUTH"] ?? []).map { $0.uppercased() })
        let reply: SMTPReply
        if mechanisms.contains("PLAIN") {
            let token = Data("\0\(username)\0\(password)".utf8).base64EncodedString()
            reply = try await answer("AUTH PLAIN \(token)")
        } else if mechanisms.contains("LOGIN") {
            try await expectChallenge(answer("AUTH LOGIN"))
            try await expectChallenge(answer(Data(username.utf8).base64EncodedString()))
            reply = try await answer(Data(password.utf8).base64EncodedString())
        } else {
            throw MailError.authenticationFailed(
                text: "\(connection.host) offers neither AUTH PLAIN nor AUTH LOGIN; remove the credentials if it needs none"
            )
        }
        guard reply.code == 235 else { throw failure(reply) }
    }

    /// Sends one AUTH line; the step name stays "AUTH" so no secret reaches an error or a log.
    private func answer(_ line: String) async throws -> SMTPReply {
        try await connection.send(line)
        return try await connection.readReply(to: "AUTH")
    }

    private func expectChallenge(_ reply: SMTPReply) throws {
        guard reply.code == 334 else { throw failure(reply) }
    }

    private func failure(_ reply: SMTPReply) -> MailError {
        switch reply.code {
        case 400..<500: reply.error(host: connection.host, during: "AUTH")
        case 500..<600: .authenticationFailed(code: reply.code, text: reply.text)
        default: .protocolViolation(host: connection.host, "unexpected reply \(reply.code) to AUTH")
        }
    }
}
