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

/// Issue 29, item 6: `/recover` and `/otp` took 6 ms for a known address and
/// 2 ms for an unknown one (a row written, a template rendered, or nothing),
/// and `/signup` answered `user_already_exists`. Both paths now do the same
/// work short of the mail; with confirmation on, `/signup` answers alike
/// (`SignUpConfirmationTests.aSecondSignUpIsAnsweredAlikeAndKeepsNeitherPassword`).
struct AccountExistenceTests {
    static func rows(_ test: TestServer, _ email: String) async throws -> [String] {
        try await test.server.store.withTransaction { db in
            try await db.raw("SELECT purpose FROM one_time_tokens WHERE email = \(bind: email) ORDER BY purpose").all()
                .map { try $0.decode(column: "purpose", as: String.self) }
        }
    }

    @Test(arguments: TestDatabase.all)
    func anUnknownAddressCostsTheSameWritesAsAKnownOne(database: TestDatabase) async throws {
        try await EmailTestServer.run(database) { test, client, mail in
            _ = try await client.signUp("known@example.com")
            for email in ["known@example.com", "nobody@example.com"] {
                #expect(try await client.requestReset(email).text == "{}")
                #expect(try await client.requestCode(email, createUser: false).text == "{}")
                #expect(try await Self.rows(test, email) == ["recovery", "sign_in"], "\(email)")
            }
            // Mail only for the account: two messages, both to it.
            #expect(try await mail.next().to.address == "known@example.com")
            #expect(try await mail.next().to.address == "known@example.com")
            await #expect(throws: (any Error).self) { try await mail.next(within: 0.5) }
            // A stand-in row redeems to nothing, whatever is guessed.
            let refused = try await client.verify(type: "recovery", email: "nobody@example.com", code: "123456")
            #expect(refused.goTrueErrorCode == "otp_expired")
        }
    }
}
