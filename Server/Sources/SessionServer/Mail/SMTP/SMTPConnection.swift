import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// One TCP connection to an SMTP server: commands out, replies in, each reply awaited with
/// a deadline. Used by one task at a time; the owner calls `close()` on every path.
final class SMTPConnection {
    let host: String
    private let channel: any Channel
    private let continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation
    private var replies: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator
    private let timeout: TimeAmount
    private let logger: Logger
    private var repliesRead = 0
    private(set) var isEncrypted: Bool

    private init(
        host: String, channel: any Channel, stream: AsyncThrowingStream<SMTPReply, any Error>,
        continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation, timeout: TimeAmount,
        isEncrypted: Bool, logger: Logger
    ) {
        self.host = host
        self.channel = channel
        self.replies = stream.makeAsyncIterator()
        self.continuation = continuation
        self.timeout = timeout
        self.isEncrypted = isEncrypted
        self.logger = logger
    }

    /// Connects, with TLS from the first byte when `implicitTLS` is given.
    static func open(
        host: String, port: Int, timeout: Duration, implicitTLS: NIOSSLContext?,
        group: any EventLoopGroup, logger: Logger
    ) async throws -> SMTPConnection {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SMTPReply.self, throwing: (any Error).self)
        let serverHostname = Self.serverHostname(for: host)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(timeout))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let implicitTLS {
                            let tls = try NIOSSLClientHandler(context: implicitTLS, serverHostname: serverHostname)
                            try channel.pipeline.syncOperations.addHandler(tls)
                        }
                        try channel.pipeline.syncOperations.addHandler(
                            SMTPReplyHandler(host: host, continuation: continuation)
                        )
                    }
                }
                .connect(host: host, port: port).get()
        } catch ChannelError.connectTimeout {
            throw MailError.timeout(host: host, waitingFor: "the TCP connection")
        } catch {
            throw MailError.connectionFailed(host: host, "\(error)")
        }
        return SMTPConnection(
            host: host, channel: channel, stream: stream, continuation: continuation,
            timeout: TimeAmount(timeout), isEncrypted: implicitTLS != nil, logger: logger
        )
    }

    /// The next complete reply, or `MailError.timeout` if it takes longer than the timeout.
    func readReply(to step: String) async throws -> SMTPReply {
        let continuation = self.continuation
        let timeoutError = MailError.timeout(host: host, waitingFor: "\(step)")
        // Ending the stream from the event loop wakes the awaiting task without moving the
        // iterator into a child task (it is not Sendable).
        let timer = channel.eventLoop.scheduleTask(in: timeout) { continuation.finish(throwing: timeoutError) }
        defer { timer.cancel() }
        guard let reply = try await replies.next() else {
            throw MailError.connectionFailed(host: host, "the server closed the connection before answering \(step)")
        }
        repliesRead += 1
        logger.debug("SMTP reply", metadata: ["smtp.host": "\(host)", "smtp.code": "\(reply.code)"])
        return reply
    }

    func send(_ command: String) async throws {
        try await write(command + "\r\n")
    }

    func write(_ text: String) async throws {
        let (channel, continuation) = (self.channel, self.continuation)
        let timeoutError = MailError.timeout(host: host, waitingFor: "our data (it stopped reading)")
        // A server that stops reading would otherwise hold a large write forever.
        let timer = channel.eventLoop.scheduleTask(in: timeout) {
            continuation.finish(throwing: timeoutError)
            channel.close(promise: nil)
        }
        defer { timer.cancel() }
        do {
            try await channel.writeAndFlush(ByteBuffer(string: text)).get()
        } catch let writeError {
            // The reply stream knows why the channel died (a failed TLS handshake, a protocol
            // violation); "I/O on closed channel" from the write would hide it.
            do {
                _ = try await readReply(to: "the connection's end")
            } catch let streamError as MailError where streamError.kind != .connectionFailed {
                throw streamError
            } catch {}
            throw SMTPReplyHandler.mailError(for: writeError, host: host)
        }
    }

    /// Puts TLS under the conversation after the server's `220` to STARTTLS.
    func startTLS(_ context: NIOSSLContext) async throws {
        let (channel, host, expected) = (self.channel, self.host, repliesRead)
        let serverHostname = Self.serverHostname(for: host)
        try await channel.eventLoop.submit {
            let handler = try channel.pipeline.syncOperations.handler(type: SMTPReplyHandler.self)
            guard handler.hasSentNothingBeyond(replies: expected) else {
                throw MailError.protocolViolation(host: host, "the server sent more data after agreeing to STARTTLS")
            }
            let tls = try NIOSSLClientHandler(context: context, serverHostname: serverHostname)
            try channel.pipeline.syncOperations.addHandler(tls, position: .first)
        }.get()
        isEncrypted = true
    }

    /// Whether the peer actually connected to is on this machine, whatever the host name said.
    var peerIsLoopback: Bool {
        guard let ip = channel.remoteAddress?.ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }

    /// A QUIT that failed after the message was delivered: worth a debug line, not an error.
    func noteQuitFailure(_ error: any Error) {
        logger.debug("SMTP QUIT failed after delivery", metadata: ["smtp.host": "\(host)", "error.type": "\(type(of: error))"])
    }

    func close() async {
        continuation.finish()
        // Closing a channel the server already closed throws; either way it is closed, and
        // the send's own outcome (delivered or its typed error) was decided before this.
        do {
            try await channel.close().get()
        } catch ChannelError.alreadyClosed {
            // The server hung up first: the usual end after QUIT.
        } catch {
            logger.debug("SMTP connection closed with an error", metadata: ["smtp.host": "\(host)", "error.type": "\(type(of: error))"])
        }
    }

    /// SNI and certificate checks need a name; for an IP literal NIOSSL checks the peer's address instead.
    private static func serverHostname(for host: String) -> String? {
        isIPLiteral(host) ? nil : host
    }

    private static func isIPLiteral(_ host: String) -> Bool {
        do {
            _ = try SocketAddress(ipAddress: host, port: 0)
            return true
        } catch {
            // Not an address literal: a name, which is what SNI wants.
            return false
        }
    }
}
