import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SQLKit
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 29, item 5: 20 `/otp` requests with `create_user` to 20 domains from
/// one address in a second sent 20 mails, no budget bounded the server's
/// mail, and a full queue dropped real users' codes as readily as a flood's.
struct MailBudgetTests {
    static func otp(_ client: any TestClientProtocol, _ email: String) async throws -> TestResponse {
        try await client.send(.post, "/auth/v1/otp", json: #"{"email":"\#(email)","create_user":true}"#)
    }

    /// The attack as run live: one address, 20 domains, one second.
    @Test func aFloodFromOneAddressStopsAtItsMailBudget() async throws {
        try await EmailTestServer.run(configure: { $0.mailRequestsPerMinutePerIP = 5 }) { test, client, mail in
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<20 { statuses.append(try await Self.otp(client, "victim\(index)@domain\(index).example").status) }
            #expect(statuses.prefix(5).allSatisfy { $0 == .ok })
            #expect(statuses.dropFirst(5).allSatisfy { $0 == .tooManyRequests })
            let refused = try await Self.otp(client, "one-more@example.org")
            #expect(refused.goTrueErrorCode == "over_email_send_rate_limit")
            #expect(refused.headers[.retryAfter] != nil)
            for _ in 0..<5 { _ = try await mail.next() }
            await #expect(throws: (any Error).self) { try await mail.next(within: 0.5) }
            // The same budget covers /recover; a minute later it is back.
            #expect(try await client.requestReset("ada@example.com").status == .tooManyRequests)
            await test.clock.advance(by: 61)
            #expect(try await client.requestReset("ada@example.com").status == .ok)
        }
    }

    /// Issue 37, item 3: a spent budget answers as if sent and drops the mail;
    /// bulk mail has three quarters of it, the rest waits for existing accounts.
    @Test func theServerHasAGlobalBudget() async throws {
        try await EmailTestServer.run(configure: { $0.mailsPerHour = 4 }) { test, client, mail in
            _ = try await client.signUp("ada@example.com")
            for index in 0..<3 { #expect(try await Self.otp(client, "u\(index)@d\(index).example").status == .ok) }
            for _ in 0..<3 { _ = try await mail.next() }
            // The bulk share is spent: the same answer, no mail.
            #expect(try await Self.otp(client, "u9@d9.example").status == .ok)
            await #expect(throws: (any Error).self) { try await mail.next(within: 0.5) }
            #expect(test.server.metrics.render().contains(#"auth_mail_total{outcome="over_budget"} 1"#))
            // The reserved share: an existing account's code goes out.
            #expect(try await Self.otp(client, "ada@example.com").status == .ok)
            #expect(try await mail.next().to.address == "ada@example.com")
            await test.clock.advance(by: 3601)
            #expect(try await Self.otp(client, "u9@d9.example").status == .ok)
            #expect(try await mail.next().to.address == "u9@d9.example")
        }
    }

    @Test func eachDomainHasACap() async throws {
        try await EmailTestServer.run(configure: { $0.mailsPerMinutePerDomain = 4 }) { _, client, mail in
            for name in ["a", "b", "c"] { #expect(try await Self.otp(client, "\(name)@target.example").status == .ok) }
            for _ in 0..<3 { _ = try await mail.next() }
            #expect(try await Self.otp(client, "d@target.example").status == .ok)
            await #expect(throws: (any Error).self) { try await mail.next(within: 0.5) }
            #expect(try await Self.otp(client, "c@other.example").status == .ok)
            #expect(try await mail.next().to.address == "c@other.example")
        }
    }

    /// A full queue keeps room for sign-in and recovery codes of accounts that exist.
    @Test func theQueueReservesRoomForAccountsMail() throws {
        let metrics = ServerMetrics()
        let queue = MailQueue(
            transport: RecordingMailTransport(), clock: ManualClock(), metrics: metrics, logger: Logger(label: "test"),
            capacity: 4, reserved: 2)
        let message = MailMessage(
            from: try MailAddress("auth@example.com"), to: try MailAddress("ada@example.com"), subject: "s", text: "123456")
        #expect(queue.enqueue(message, priority: .bulk))
        #expect(queue.enqueue(message, priority: .bulk))
        #expect(!queue.enqueue(message, priority: .bulk))
        #expect(queue.enqueue(message, priority: .account))
        #expect(queue.enqueue(message, priority: .account))
        #expect(!queue.enqueue(message, priority: .account))
        #expect(metrics.render().contains(#"auth_mail_total{outcome="dropped"} 2"#))
    }
}
