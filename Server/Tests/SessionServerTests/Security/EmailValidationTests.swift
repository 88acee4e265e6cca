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

/// Issue 29, item 13: an address with a trailing NUL made a second account
/// the console showed like the first (and a 500 on PostgreSQL), and markup
/// and look-alike letters were accepted. Addresses now follow GoTrue's pattern.
struct EmailValidationTests {
    /// JSON string bodies (escaped as JSON), each refused.
    static let refused = [
        #"ada@example.com\u0000"#, #"ada\u0000@example.com"#, #"ada@example.com\u0007"#,
        #"ada\u200b@example.com"#, #"ada@exampl\u0435.com"#, #"аda@example.com"#,
        #"<script>@example.com"#, #"ada@<b>example.com"#, #"\"ada\"@example.com"#, #"ada@example"#,
        #"ada@-example.com"#, #"ada@example-.com"#, #"ada@exa_mple.com"#, #"ada@@example.com"#, #"ada@example..com"#,
    ]

    @Test(arguments: TestDatabase.all)
    func controlCharactersMarkupAndLookAlikesAreRefused(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            _ = try await client.signUp("ada@example.com")
            for email in Self.refused {
                let response = try await client.send(
                    .post, "/auth/v1/signup", json: #"{"email":"\#(email)","password":"correct-horse"}"#)
                #expect(response.status == .badRequest, "\(email): \(response.status)")
                #expect(response.goTrueErrorCode == "validation_failed", "\(email)")
                let signIn = try await client.send(
                    .post, "/auth/v1/token?grant_type=password", json: #"{"email":"\#(email)","password":"correct-horse"}"#)
                #expect(signIn.status == .badRequest, "\(email)")
            }
            let count = try await test.server.store.withTransaction { db in
                try await db.raw("SELECT COUNT(*) AS n FROM users").first()?.decode(column: "n", as: Int.self)
            }
            #expect(count == 1)
        }
    }

    @Test func addressesAreNormalisedAsGoTrueDoes() throws {
        #expect(try SessionService.normalize(email: "  Ada.Lovelace+Tag@Example.COM \n") == "ada.lovelace+tag@example.com")
        #expect(try SessionService.normalize(email: "o'brien@sub.example.co.uk") == "o'brien@sub.example.co.uk")
        #expect(throws: AuthError.self) { try SessionService.normalize(email: "ada@example.com\u{0}") }
    }
}
