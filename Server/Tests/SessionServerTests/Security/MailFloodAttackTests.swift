import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 37, item 3 (an attack): the server's mail budget (1,000 an hour) was
/// spent by requests that sent no mail, so a flood of recoveries for
/// addresses nobody holds answered `over_email_send_rate_limit` to every
/// real person for an hour. Only queued mail counts now, a spent budget
/// answers as if sent, and bulk mail leaves a share for existing accounts.
struct MailFloodAttackTests {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    static func run(
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol, RecordingMailTransport) async throws -> Void
    ) async throws {
        try await EmailTestServer.run(
            configure: {
                // The server's defaults for mail, behind a proxy on loopback, so each request names its client.
                $0.mailRequestsPerMinutePerIP = 5
                $0.trustedProxies = try! TrustedProxies(parsing: "127.0.0.1,::1")
            }, body)
    }

    static func from(_ index: Int) -> HTTPFields { [forwardedFor: "198.18.\(index / 250).\(index % 250 + 1)"] }

    /// 1,000 recoveries for unknown addresses from 200 addresses, then a real
    /// person asks for a sign-in code: it is mailed.
    @Test func aFloodOfRecoveriesForUnknownAddressesLeavesARealCodeDeliverable() async throws {
        try await Self.run { _, client, mail in
            _ = try await client.signUp("ada@example.com")
            var early = EarlyRefusals()
            for index in 0..<1_000 {
                let response = try await client.send(
                    .post, "/auth/v1/recover", json: #"{"email":"nobody\#(index)@d\#(index % 50).example"}"#,
                    headers: Self.from(index / 5))
                early.note(response, index)
            }
            early.expectFew()
            let asked = try await client.send(
                .post, "/auth/v1/otp", json: #"{"email":"ada@example.com","create_user":false}"#, headers: Self.from(999))
            #expect(asked.status == .ok)
            #expect(try await mail.next().to.address == "ada@example.com")
        }
    }

    /// The bulk variant: 1,000 codes that would create accounts (real mail to
    /// fresh addresses). The bulk share goes; an existing account's code still does.
    @Test func aFloodOfBulkMailKeepsTheReservedShare() async throws {
        try await Self.run { test, client, mail in
            _ = try await client.signUp("ada@example.com")
            var early = EarlyRefusals()
            for index in 0..<1_000 {
                let response = try await client.send(
                    .post, "/auth/v1/otp", json: #"{"email":"new\#(index)@d\#(index % 50).example","create_user":true}"#,
                    headers: Self.from(index / 5))
                // Never an error that a known address would not get: the same answer, sent or not.
                early.note(response, index)
            }
            early.expectFew()
            let asked = try await client.send(
                .post, "/auth/v1/otp", json: #"{"email":"ada@example.com","create_user":false}"#, headers: Self.from(999))
            #expect(asked.status == .ok)
            var delivered: [String] = []
            while true {
                do {
                    delivered.append(try await mail.next(within: 2).to.address)
                } catch {
                    break  // No more mail within two seconds: the queue is drained.
                }
            }
            #expect(delivered.count <= RateLimitRule.bulkShare(of: test.server.configuration.mailsPerHour) + 1)
            #expect(delivered.contains("ada@example.com"))
        }
    }

    /// `/reauthenticate` had no per-IP mail limit: 17 accounts calling it every
    /// minute spent the server's budget. It shares the per-IP mail budget now.
    @Test func reauthenticationHasThePerIPMailLimit() async throws {
        try await Self.run { _, client, _ in
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<6 {
                let session = try await client.signUp("person\(index)@example.com")
                let response = try await client.send(
                    .post, "/auth/v1/reauthenticate", bearer: session.accessToken, headers: Self.from(0))
                statuses.append(response.status)
            }
            #expect(statuses == [.ok, .ok, .ok, .ok, .ok, .tooManyRequests])
        }
    }
}

/// The flood's answers: 200, or the per-mailbox limit's early refusal.
///
/// The per-mailbox limiter is a count-min sketch (RateLimiter.swift): at its
/// limit of 1, a fresh address whose two slots were both taken this minute is
/// refused early, about once in 200 floods of 1,000 addresses (CI met one:
/// address 514 of a run answered 429). That is the sketch's stated trade, not
/// the defect these tests catch: a budget spent by requests that sent no mail
/// refuses hundreds of the flood and the real person after it.
struct EarlyRefusals {
    private(set) var indices: [Int] = []

    mutating func note(_ response: TestResponse, _ index: Int) {
        if response.status == .tooManyRequests, response.text.contains("over_email_send_rate_limit") {
            indices.append(index)
        } else {
            #expect(response.status == .ok, "\(index): \(response.text)")
        }
    }

    func expectFew() {
        #expect(indices.count <= 2, "\(indices.count) flood requests refused early: \(indices.prefix(10))")
    }
}
