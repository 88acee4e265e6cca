import Foundation
import Logging
import NIOConcurrencyHelpers
import SessionCore
import ServiceLifecycle

/// Delivers mail in the background: `/otp` and `/recover` answer at once,
/// whether or not the address has an account and however slow the SMTP
/// server is, so neither the answer nor its timing tells who is registered.
///
/// A transient failure (a 4xx, a timeout, a refused connection) is retried
/// after each of `retryDelays`; then the message is given up and logged.
/// A message still queued at shutdown is lost: the person asks again.
public final class MailQueue: Service, Sendable {
    let transport: any MailTransport
    let clock: any SessionClock
    let retryDelays: [TimeInterval]
    let metrics: ServerMetrics
    let logger: Logger
    /// How many messages are sent at once.
    let concurrency: Int
    /// Messages waiting at most.
    let capacity: Int
    /// Places only ``Priority/account`` mail may take: a flood of sign-up
    /// mail fills the queue up to `capacity - reserved`, and sign-in and
    /// recovery codes of existing accounts still get in (issue 29, item 5).
    let reserved: Int
    /// Messages queued and not yet taken by ``run()``.
    private let pending = NIOLockedValueBox(0)
    private let stream: AsyncStream<MailMessage>
    private let continuation: AsyncStream<MailMessage>.Continuation

    /// Which mail yields to which when the queue fills.
    public enum Priority: Sendable {
        /// A sign-in or recovery code for an account that exists.
        case account
        /// Mail that creates or confirms an account: the kind a flood is made of.
        case bulk
    }

    public init(
        transport: any MailTransport, clock: any SessionClock, retryDelays: [TimeInterval] = [2, 10, 60],
        metrics: ServerMetrics, logger: Logger, capacity: Int = 1000, reserved: Int? = nil, concurrency: Int = 4
    ) {
        self.transport = transport
        self.clock = clock
        self.retryDelays = retryDelays
        self.metrics = metrics
        self.logger = logger
        self.concurrency = max(1, concurrency)
        self.capacity = max(1, capacity)
        self.reserved = min(max(0, reserved ?? capacity / 4), self.capacity - 1)
        // Bounded: a flood of requests costs memory up to `capacity`, then drops (counted).
        (stream, continuation) = AsyncStream.makeStream(
            of: MailMessage.self, bufferingPolicy: .bufferingOldest(self.capacity))
    }

    /// Queues `message`; false when there is no room for its priority and it was dropped.
    @discardableResult
    public func enqueue(_ message: MailMessage, priority: Priority = .account) -> Bool {
        let limit = priority == .bulk ? capacity - reserved : capacity
        let admitted = pending.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted, case .enqueued = continuation.yield(message) else {
            if admitted { pending.withLockedValue { $0 -= 1 } }
            metrics.mail(outcome: "dropped")
            logger.error(
                "Mail queue full: a message was dropped",
                metadata: ["to.domain": "\(Self.domain(of: message))", "priority": "\(priority)"])
            return false
        }
        return true
    }

    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for await message in stream.cancelOnGracefulShutdown() {
                pending.withLockedValue { $0 -= 1 }
                if running >= concurrency {
                    await group.next()
                    running -= 1
                }
                group.addTask { await self.deliver(message) }
                running += 1
            }
        }
    }

    func deliver(_ message: MailMessage) async {
        var delays = retryDelays[...]
        while true {
            do {
                try await transport.send(message)
                metrics.mail(outcome: "sent")
                logger.info("Mail sent", metadata: ["to.domain": "\(Self.domain(of: message))"])
                return
            } catch let error as MailError where error.isTransient {
                guard let delay = delays.popFirst() else {
                    give(up: message, error)
                    return
                }
                logger.notice(
                    "Mail not sent yet; retrying", metadata: ["error": "\(error)", "retry.in": "\(delay)"])
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    give(up: message, error)
                    return
                }
            } catch {
                give(up: message, error)
                return
            }
        }
    }

    private func give(up message: MailMessage, _ error: any Error) {
        metrics.mail(outcome: "failed")
        logger.error(
            "Mail could not be sent", metadata: ["to.domain": "\(Self.domain(of: message))", "error": "\(error)"])
    }

    /// The recipient's domain: enough to diagnose delivery, without logging who.
    static func domain(of message: MailMessage) -> Substring {
        message.to.address.split(separator: "@").last ?? ""
    }
}
