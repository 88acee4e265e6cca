import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request has not arrived in full within
/// `timeout` of its head (issue 29, item 14): a client that declares a
/// 100-byte body and sends one byte no longer holds a connection open.
///
/// Hummingbird's idle timeout covers the time between requests only; this
/// covers the time inside one. The deadline runs on the event loop's clock,
/// which is the socket's: it decides no expiry of anything stored.
///
/// A head moves a deadline; it does not schedule a timer. One timer per
/// connection is pending at most, and when it fires early (the request it was
/// set for ended, and a later one began) it is set again for the later
/// deadline. A keep-alive connection sending requests back to back therefore
/// schedules about one timer a `timeout`, not one a request: scheduling and
/// cancelling a task on every head was 1.8 % of the same-token route's samples
/// (docs/BENCHMARKS.md, "Item 4: the request path's misses").
final class RequestReadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    let timeout: TimeAmount
    /// When the request being read must have ended; `nil` between requests.
    private var deadline: NIODeadline?
    /// The one pending timer, if any. It may fire before `deadline` (then it is set again) or after
    /// the request ended (then it does nothing).
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            let deadline = context.eventLoop.now + timeout
            self.deadline = deadline
            if timer == nil { schedule(at: deadline, context: context) }
        case .end:
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    /// Runs on the event loop, as every handler method does: `deadline` and `timer` need no lock.
    private func schedule(at when: NIODeadline, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: when) {
            let (handler, context) = loopBound.value
            handler.timerFired(context: context)
        }
    }

    private func timerFired(context: ChannelHandlerContext) {
        timer = nil
        // The request ended in time: nothing to do until the next head.
        guard let deadline else { return }
        if context.eventLoop.now >= deadline {
            context.channel.close(promise: nil)
        } else {
            // A later request's head moved the deadline past this timer.
            schedule(at: deadline, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        deadline = nil
    }
}
