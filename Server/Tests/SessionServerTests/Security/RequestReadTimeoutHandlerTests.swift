import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
@testable import SessionServer

/// The read timeout of issue 29, item 14, on a channel whose clock the test
/// advances: the deadline runs from each request's head, a request that ended
/// is never closed, and a keep-alive connection's later request gets its own
/// full timeout (the handler sets one timer per connection and moves it,
/// docs/BENCHMARKS.md, "Item 4: the request path's misses").
/// `SlowConnectionTests` checks the same on a real socket.
struct RequestReadTimeoutHandlerTests {
    static let timeout = TimeAmount.seconds(30)

    static func connectedChannel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: RequestReadTimeoutHandler(timeout: timeout))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return channel
    }

    static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/token"))

    static func body(_ text: String) -> HTTPRequestPart { .body(ByteBuffer(string: text)) }

    @Test func aRequestWithoutItsEndIsClosedAtTheTimeout() throws {
        let channel = try Self.connectedChannel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(Self.body("{"))
        channel.embeddedEventLoop.advanceTime(by: Self.timeout - .milliseconds(1))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
    }

    @Test func aRequestThatEndedIsNotClosed() throws {
        let channel = try Self.connectedChannel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(90))
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test func aLaterRequestGetsItsOwnTimeout() throws {
        let channel = try Self.connectedChannel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(20))
        // The second request on the connection starts at 20 s: its deadline is 50 s, not the first one's 30 s.
        try channel.writeInbound(Self.head)
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(channel.isActive, "closed at 49 s, before the second request's deadline")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive, "still open at 50 s, the second request's deadline")
    }

    @Test func aSlowRequestAfterCompletedOnesIsClosed() throws {
        let channel = try Self.connectedChannel()
        for _ in 0..<3 {
            try channel.writeInbound(Self.head)
            try channel.writeInbound(HTTPRequestPart.end(nil))
            channel.embeddedEventLoop.advanceTime(by: .seconds(25))
        }
        // At 75 s a head without its end: closed at 105 s.
        try channel.writeInbound(Self.head)
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test func everyPartIsPassedOn() throws {
        let channel = try Self.connectedChannel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(Self.body("{}"))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == Self.head)
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == Self.body("{}"))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == .end(nil))
        _ = try channel.finish()
    }
}
