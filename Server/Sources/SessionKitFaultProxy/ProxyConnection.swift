import NIOCore
import NIOHTTP1
import NIOPosix

/// One client connection and its upstream connection: reads requests, asks the
/// plan for a fault, forwards or not, and writes back the (possibly spoiled) answer.
struct ProxyConnection: Sendable {
    typealias Downstream = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    typealias Upstream = NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>

    let context: ProxyContext
    let downstream: Downstream

    /// What becomes of the client connection after one exchange.
    enum Next {
        case keepAlive
        /// Say nothing more until the client gives up and closes.
        case hold
        /// Close with a FIN.
        case close
        /// Close with a TCP RST.
        case reset
    }

    func run() async {
        defer { context.closed(downstream.channel) }
        do {
            // The upstream connection is made inside the client connection's
            // scope: when the server is down, the client's connection must still
            // be closed through `executeThenClose` (NIO traps on an async channel
            // dropped without it), and the client sees it closed.
            try await downstream.executeThenClose { requests, responses in
                let upstream = try await connectUpstream()
                try await upstream.executeThenClose { upstreamResponses, upstreamRequests in
                    var reader = upstreamResponses.makeAsyncIterator()
                    let exchange = Exchange(context: context, responses: responses, upstreamRequests: upstreamRequests)
                    var head: HTTPRequestHead?
                    var body = downstream.channel.allocator.buffer(capacity: 0)
                    var holding = false
                    for try await part in requests {
                        if holding { continue }  // a stalled connection hears nothing more
                        switch part {
                        case .head(let requestHead):
                            head = requestHead
                            body.clear()
                        case .body(var chunk):
                            body.writeBuffer(&chunk)
                        case .end:
                            guard let requestHead = head else { continue }
                            switch try await exchange.handle(requestHead, body: body, reader: &reader) {
                            case .keepAlive: head = nil
                            case .hold: holding = true
                            case .close: return
                            case .reset:
                                // A zero linger time turns the close into a reset.
                                if let socket = downstream.channel as? any SocketOptionProvider {
                                    try await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
                                }
                                return
                            }
                        }
                    }
                }
            }
        } catch {
            // The client went away, or the upstream server did; either way the
            // connection is over and the client sees it closed.
        }
    }

    private func connectUpstream() async throws -> Upstream {
        let upstream = context.upstream
        return try await ClientBootstrap(group: context.group)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .connect(host: upstream.host, port: upstream.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try Upstream(wrappingChannelSynchronously: channel)
                }
            }
    }
}
