import NIOCore
import NIOSSL

/// Hands the server's replies from the event loop to the async session through a stream,
/// and turns every way the channel can end into the stream's end or a ``MailError``.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation
    private let host: String
    private var parser = SMTPReplyParser()
    private var failed = false
    private var repliesDelivered = 0

    init(host: String, continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation) {
        self.host = host
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // After a failure the rest is ignored, so a flood cannot pile up while the channel closes.
        guard !failed else { return }
        var buffer = unwrapInboundIn(data)
        do {
            for reply in try parser.feed(&buffer) {
                repliesDelivered += 1
                continuation.yield(reply)
            }
        } catch {
            let problem = switch error {
            case .lineTooLong: "a reply line is longer than \(SMTPReplyParser.maximumLineLength) bytes"
            case .tooManyLines: "a reply has more than \(SMTPReplyParser.maximumLines) lines"
            case .malformed(let detail): detail
            }
            fail(.protocolViolation(host: host, problem), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(Self.mailError(for: error, host: host), context: context)
    }

    /// TLS errors are `tlsFailed` (not worth a retry until someone fixes certificates), except
    /// a TCP close without TLS close_notify, which is just a lost connection.
    static func mailError(for error: any Error, host: String) -> MailError {
        if let tlsError = error as? NIOSSLError, tlsError == .uncleanShutdown {
            return .connectionFailed(host: host, "the server closed the connection")
        }
        if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError {
            return .tlsFailed(host: host, "\(error)")
        }
        return .connectionFailed(host: host, "\(error)")
    }

    /// True when the server has sent exactly `count` replies and no byte more. Checked before
    /// TLS starts: plaintext queued behind the STARTTLS reply would otherwise be read as if it
    /// came over TLS (the command-injection attack of CVE-2011-0411).
    func hasSentNothingBeyond(replies count: Int) -> Bool {
        repliesDelivered == count && parser.bufferedByteCount == 0
    }

    private func fail(_ error: MailError, context: ChannelHandlerContext) {
        failed = true
        continuation.finish(throwing: error)
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension SMTPReplyHandler: Sendable {}
