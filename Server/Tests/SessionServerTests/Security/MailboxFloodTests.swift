import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 37, item 10 (an attack): the per-address mail limit counted the
/// exact string, so `ada+1@`, `ada+2@` and Gmail's dotted variants each got
/// a fresh budget and one inbox could be flooded; and the API and `/account`
/// kept separate per-IP mail budgets (10 a minute, not 5).
struct MailboxFloodTests {
    @Test func variantsOfOneMailboxShareItsBudget() async throws {
        try await EmailTestServer.run { _, client, mail in
            #expect(try await client.requestCode("ada.lovelace@gmail.com").status == .ok)
            _ = try await mail.next()
            for variant in ["ada.lovelace+1@gmail.com", "adalovelace@gmail.com", "A.D.A.Lovelace@googlemail.com", "ada.lovelace+x@GMAIL.com"] {
                let response = try await client.requestCode(variant)
                #expect(response.status == .tooManyRequests, "\(variant)")
                #expect(response.goTrueErrorCode == "over_email_send_rate_limit")
            }
            await #expect(throws: (any Error).self) { try await mail.next(within: 0.5) }
            // Another mailbox is not affected.
            #expect(try await client.requestCode("grace@example.com").status == .ok)
        }
    }

    @Test func theCanonicalMailboxKeepsOtherDomainsDots() {
        #expect(CanonicalMailbox.of("First.Last+tag@Example.com") == "first.last@example.com")
        #expect(CanonicalMailbox.of("f.i.r.s.t+tag@googlemail.com") == "first@gmail.com")
        #expect(CanonicalMailbox.of("+only@example.com") == "+only@example.com")
    }

    @Test func theAPIAndTheAccountPageShareThePerIPMailBudget() async throws {
        try await EmailTestServer.run(configure: { $0.mailRequestsPerMinutePerIP = 5 }) { _, client, _ in
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<3 { statuses.append(try await client.requestCode("api\(index)@example.com").status) }
            for index in 0..<3 {
                let response = try await WebConsoleTests.form(client, "/account/code", "email=page\(index)%40example.com")
                statuses.append(response.status)
            }
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 1, "\(statuses)")
            #expect(statuses.last == .tooManyRequests)
        }
    }
}
