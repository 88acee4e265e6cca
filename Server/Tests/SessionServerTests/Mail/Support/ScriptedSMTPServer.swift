import Foundation
import NIOCore
import NIOPosix

/// A loopback TCP server that answers SMTP by script, to put the client in front of
/// servers that misbehave in one precise way. No Python: every byte is under the test's control.
final class ScriptedSMTPServer: Sendable {
    enum Action: Sendable {
        /// A reply line; CRLF is added.
        case reply(String)
        /// Bytes exactly as given.
        case raw(ByteBuffer)
        case close
    }

    /// Answers a command line (or "." at the end of DATA); nil falls back to a well-behaved server.
    typealias Script = @Sendable (String) -> [Action]?

    let port: Int
    private let channel: any Channel
    private let log = LineLog()

    /// Every line the server received, DATA lines included, in order.
    var receivedLines: [String] { log.lines }

    /// With `stallsInData`, the server stops reading once it has said 354, with a small
    /// receive buffer, so a large message fills the sockets and the client's write stalls.
    init(
        greeting: [Action] = [.reply("220 scripted ESMTP")], stallsInData: Bool = false,
        script: @escaping Script = { _ in nil }
    ) async throws {
        let log = self.log
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.so_rcvbuf), value: stallsInData ? 4096 : 65536)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ScriptedSessionHandler(greeting: greeting, stallsInData: stallsInData, script: script, log: log)
                    )
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    func stop() async {
        try? await channel.close().get()
    }

    static func standardAnswer(to line: String) -> [Action] {
        switch line.prefix(4).uppercased() {
        case "EHLO": [.reply("250-scripted greets you"), .reply("250 8BITMIME")]
        case "HELO": [.reply("250 scripted")]
        case "MAIL", "RCPT", "RSET", "NOOP": [.reply("250 OK")]
        case "DATA": [.reply("354 end with <CRLF>.<CRLF>")]
        case ".": [.reply("250 queued")]
        case "QUIT": [.reply("221 bye"), .close]
        default: [.reply("500 unknown command")]
        }
    }
}

/// The lines one server received, shared between its connections' event loops and the test.
private final class LineLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    var lines: [String] { lock.withLock { storage } }
    func append(_ line: String) { lock.withLock { storage.append(line) } }
}

private final class ScriptedSessionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let greeting: [ScriptedSMTPServer.Action]
    private let script: ScriptedSMTPServer.Script
    private let log: LineLog
    private let stallsInData: Bool
    private var pending = ""
    private var inData = false

    init(
        greeting: [ScriptedSMTPServer.Action], stallsInData: Bool, script: @escaping ScriptedSMTPServer.Script,
        log: LineLog
    ) {
        self.greeting = greeting
        self.stallsInData = stallsInData
        self.script = script
        self.log = log
    }

    func channelActive(context: ChannelHandlerContext) {
        perform(greeting, context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pending += String(buffer: unwrapInboundIn(data))
        while let end = pending.range(of: "\r\n") {
            let line = String(pending[..<end.lowerBound])
            pending.removeSubrange(..<end.upperBound)
            log.append(line)
            // Inside DATA only the final "." is a command.
            guard !inData || line == "." else { continue }
            let actions = script(line) ?? ScriptedSMTPServer.standardAnswer(to: line)
            inData = actions.contains { if case .reply(let text) = $0 { text.hasPrefix("354") } else { false } }
            perform(actions, context: context)
            if inData, stallsInData {
                context.channel.setOption(.autoRead, value: false).whenFailure { _ in }
                return
            }
        }
    }

    private func perform(_ actions: [ScriptedSMTPServer.Action], context: ChannelHandlerContext) {
        for action in actions {
            switch action {
            case .reply(let text): context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text + "\r\n")), promise: nil)
            case .raw(let bytes): context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
            case .close: context.close(promise: nil)
            }
        }
    }
}
