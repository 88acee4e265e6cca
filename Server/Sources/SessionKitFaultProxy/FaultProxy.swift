import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A fault-injecting HTTP/1.1 proxy on loopback, between a client (SessionKit's
/// `URLSessionTransport`) and a live server.
///
/// Faults happen on real sockets, so the client meets them the way it would in
/// the field: a reset arrives as a TCP RST, a truncated body as a short read
/// under a full `Content-Length`, a stall as silence until its own request
/// timeout. Faults that forward ("the server commits, then the answer is
/// spoiled") let the upstream server really do the work first.
///
/// Each client connection gets its own upstream connection, kept alive like
/// the client's, so a long run does not exhaust ephemeral ports.
public final class FaultProxy: Sendable {
    /// The request header a client may set to pick a fault (with `FaultPlan.fromHeader`).
    public static let faultHeader = "x-fault-proxy"

    /// The proxy's base URL; send requests here instead of to the server.
    public let url: URL
    /// A loopback URL where nothing listens: connecting is refused by the kernel.
    /// Send a request here to meet a genuine "connection refused".
    public let refusedURL: URL

    private let context: ProxyContext
    private let serverChannel: any Channel
    private let acceptLoop: Task<Void, Never>
    private let refusing: RefusingEndpoint

    /// Starts a proxy on 127.0.0.1 (a free port) in front of `upstream`.
    /// - Parameters:
    ///   - upstream: the server's base URL (`http://127.0.0.1:PORT`).
    ///   - plan: which fault each request meets (default: the one its `x-fault-proxy` header names).
    public static func start(
        upstream: URL, plan: FaultPlan = .fromHeader,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> FaultProxy {
        let (host, port) = try address(of: upstream)
        let context = ProxyContext(upstreamHost: host, upstreamPort: port, plan: plan, group: group)
        // Before binding: nothing to tear down if reserving the port fails.
        let refusing = try RefusingEndpoint()
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withPipeliningAssistance: false, withErrorHandling: true)
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        guard let boundPort = server.channel.localAddress?.port else {
            try await server.channel.close()
            throw FaultProxyError.noLocalPort
        }
        let serverChannel = server.channel
        let acceptLoop = Task {
            await withDiscardingTaskGroup { group in
                do {
                    try await server.executeThenClose { connections in
                        for try await connection in connections {
                            context.opened(connection.channel)
                            group.addTask { await ProxyConnection(context: context, downstream: connection).run() }
                        }
                    }
                } catch {
                    // The listening socket closed (shutdown); open connections end on their own.
                }
            }
        }
        return FaultProxy(
            url: URL(string: "http://127.0.0.1:\(boundPort)")!, refusing: refusing, context: context,
            serverChannel: serverChannel, acceptLoop: acceptLoop)
    }

    private init(
        url: URL, refusing: RefusingEndpoint, context: ProxyContext, serverChannel: any Channel,
        acceptLoop: Task<Void, Never>
    ) {
        self.url = url
        self.refusing = refusing
        self.refusedURL = URL(string: "http://127.0.0.1:\(refusing.port)")!
        self.context = context
        self.serverChannel = serverChannel
        self.acceptLoop = acceptLoop
    }

    /// Points new client connections at another server (a restarted one on a
    /// new port, say); open connections stay with the old one until it closes
    /// them, as they would behind a real load balancer.
    public func setUpstream(_ upstream: URL) throws {
        context.upstream = try Self.address(of: upstream)
    }

    /// What ``ProxyFault/killUpstreamOnResponseHead`` does to the server, run
    /// on the proxy's connection task the moment a response head arrives; `nil`
    /// leaves only the reset.
    public func setUpstreamKiller(_ kill: (@Sendable () -> Void)?) {
        context.killUpstream = kill
    }

    private static func address(of upstream: URL) throws -> (host: String, port: Int) {
        guard let host = upstream.host, let port = upstream.port else { throw FaultProxyError.upstreamWithoutHostAndPort(upstream) }
        return (host, port)
    }

    /// What the proxy has seen so far.
    public var statistics: ProxyStatistics { context.statistics }

    /// `original` with its scheme, host and port replaced by those of `base`
    /// (`refusedURL`, say), keeping its path and query.
    public static func redirect(_ original: URL, to base: URL) -> URL {
        guard var components = URLComponents(url: original, resolvingAgainstBaseURL: false) else { return original }
        components.scheme = base.scheme
        components.host = base.host
        components.port = base.port
        return components.url ?? original
    }

    /// Runs `body` with a started proxy, and shuts the proxy down after it,
    /// whether `body` returns or throws.
    public static func withProxy<T>(
        upstream: URL, plan: FaultPlan = .fromHeader, _ body: (FaultProxy) async throws -> T
    ) async throws -> T {
        let proxy = try await start(upstream: upstream, plan: plan)
        let result: T
        do {
            result = try await body(proxy)
        } catch {
            await proxy.shutdown()
            throw error
        }
        await proxy.shutdown()
        return result
    }

    /// Stops accepting, closes every open connection (stalled ones too) and waits for them.
    public func shutdown() async {
        do {
            try await serverChannel.close()
        } catch {
            // Already closed: nothing left to stop.
        }
        context.closeAll()
        await acceptLoop.value
    }
}

/// Why a proxy could not start.
public struct FaultProxyError: Error, CustomStringConvertible {
    public let description: String

    static func upstreamWithoutHostAndPort(_ url: URL) -> FaultProxyError {
        FaultProxyError(description: "The upstream URL \(url) has no host and port; pass the server's base URL, e.g. http://127.0.0.1:8080.")
    }

    static let noLocalPort = FaultProxyError(description: "The proxy's listening socket has no local port; this should not happen on loopback.")
}
