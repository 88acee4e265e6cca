import HummingbirdCore
import NIOCore

/// Closes a connection whose request has not arrived in full within
/// `timeout` of its head (issue 29, item 14): a client that declares a
/// 100-byte body and sends one byte no longer holds a connection open.
///
/// Hummingbird's idle timeout covers the time between requests only; this
/// covers the time inside one. The deadline runs on the event loop's clock,
/// which is the socket's: it decides no expiry of anything stored.
final class RequestReadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    /// HTTP request parts (`HTTPRequestPart`), named through Hummingbird's API.
    typealias InboundIn = HTTPConnectionStateHandler.InboundIn
    typealias InboundOut = InboundIn

    let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The part's case by name: `HTTPPart` lives in NIOHTTPTypes, which this
        // package does not depend on directly (Hummingbird does), so its cases
        // cannot be spelled here.
        switch Mirror(reflecting: unwrapInboundIn(data)).children.first?.label {
        case "head":
            deadline?.cancel()
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        case "end":
            deadline?.cancel()
            deadline = nil
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}
