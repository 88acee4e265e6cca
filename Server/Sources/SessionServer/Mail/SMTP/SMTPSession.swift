import NIOSSL

/// The client's side of one SMTP conversation (RFC 5321), from greeting to QUIT.
struct SMTPSession {
    let connection: SMTPConnection
    let configuration: SMTPConfiguration
    let tls: NIOSSLContext?

    private var host: String { connection.host }

    /// Sends one message to its recipients; returns once the server has taken responsibility for it.
    func deliver(from sender: String, to recipients: [String], data: String) async throws {
        try await expect(220, from: connection.readReply(to: "the greeting"), step: "the greeting")
        var extensions = try await greet()
        if configuration.security == .startTLS {
            // Required, not opportunistic: going on in clear would let anyone on the path strip TLS.
            guard extensions["STARTTLS"] != nil, let tls else { throw MailError.tlsUnavailable(host: host) }
            try await command("STARTTLS", expecting: 220)
            try await connection.startTLS(tls)
            extensions = try await greet()
        }
        if let username = configuration.username {
            try await authenticate(username: username, password: configuration.password ?? "", extensions: extensions)
        }
        try await command("MAIL FROM:<\(sender)>", expecting: 250)
        for recipient in recipients {
            try await command("RCPT TO:<\(recipient)>", expecting: 250, 251)
        }
        try await command("DATA", expecting: 354)
        try await connection.write(SMTPData.payload(for: data))
        try await expect(250, from: connection.readReply(to: "the end of DATA"), step: "the message")
        await quit()
    }

    /// The message is delivered before this: a server that fumbles QUIT changes nothing,
    /// so its error is noted, not thrown.
    private func quit() async {
        do {
            try await connection.send("QUIT")
            _ = try await connection.readReply(to: "QUIT")
        } catch {
            connection.noteQuitFailure(error)
        }
    }

    /// EHLO, or HELO for a server that refuses EHLO; returns the extensions, keyword to parameters.
    private func greet() async throws -> [String: [String]] {
        try await connection.send("EHLO \(configuration.heloName)")
        let reply = try await connection.readReply(to: "EHLO")
        if reply.isPositive {
            var extensions: [String: [String]] = [:]
            for line in reply.lines.dropFirst() {
                let words = line.split(separator: " ").map(String.init)
                guard let keyword = words.first?.uppercased() else { continue }
                extensions[keyword, default: []] += words.dropFirst()
            }
            return extensions
        }
        guard (500..<600).contains(reply.code) else { throw reply.error(host: host, during: "EHLO") }
        try await command("HELO \(configuration.heloName)", expecting: 250)
        return [:]
    }

    @discardableResult
    func command(_ line: String, expecting codes: Int...) async throws -> SMTPReply {
        try await connection.send(line)
        let step = String(line.prefix { $0 != ":" && $0 != " " })
        let reply = try await connection.readReply(to: step)
        guard codes.contains(reply.code) else { throw reply.error(host: host, during: step) }
        return reply
    }

    private func expect(_ code: Int, from reply: SMTPReply, step: String) throws {
        guard reply.code == code else { throw reply.error(host: host, during: step) }
    }
}
