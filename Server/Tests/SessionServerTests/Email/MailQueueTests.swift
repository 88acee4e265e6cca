import Foundation
import Logging
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// The background queue: transient failures are retried, permanent ones
/// given up, and every end is counted.
struct MailQueueTests {
    static func message(_ to: String = "ada@example.com") throws -> MailMessage {
        MailMessage(from: try MailAddress("auth@example.com"), to: try MailAddress(to), subject: "s", text: "123456")
    }

    @Test func aTransientFailureIsRetriedAndAPermanentOneIsNot() async throws {
        // One 451, then one 550: the first message is retried after its 451 and
        // then meets the 550, which is final; the second goes through.
        let transport = RecordingMailTransport(failures: [
            .temporaryFailure(code: 451, text: "try later"), .rejected(code: 550, text: "no such user"),
        ])
        let metrics = ServerMetrics()
        let queue = MailQueue(
            // A zero delay on the system clock: the retry happens, nothing waits.
            transport: transport, clock: SystemClock(), retryDelays: [0, 0], metrics: metrics, logger: Logger(label: "test"))
        await queue.deliver(try Self.message("first@example.com"))
        await queue.deliver(try Self.message("second@example.com"))
        #expect(try await transport.next().to.address == "second@example.com")
        let counters = metrics.render()
        #expect(counters.contains(#"auth_mail_total{outcome="sent"} 1"#), "\(counters)")
        #expect(counters.contains(#"auth_mail_total{outcome="failed"} 1"#), "\(counters)")
        #expect(await transport.attempts == 3)
    }

    @Test func aFullQueueDropsAndCounts() throws {
        let metrics = ServerMetrics()
        let queue = MailQueue(
            transport: RecordingMailTransport(), clock: ManualClock(), metrics: metrics, logger: Logger(label: "test"),
            capacity: 1)
        #expect(queue.enqueue(try Self.message()))
        #expect(!queue.enqueue(try Self.message()))
        #expect(metrics.render().contains(#"auth_mail_total{outcome="dropped"} 1"#))
    }
}
