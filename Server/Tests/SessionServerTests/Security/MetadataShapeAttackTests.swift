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

/// Issue 29, item 4: one anonymous sign-up with `data` nested 508 deep was
/// accepted, and from then on every admin list page holding that user
/// answered 500 (depth 509–510 answered 500 but created the account). Every
/// write path now refuses metadata past ``MetadataLimits`` with a 400, and
/// nothing of the request is stored.
struct MetadataShapeAttackTests {
    /// `{"a":{"a":…1…}}`, `depth` objects deep.
    static func nested(_ depth: Int) -> String {
        String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    }

    static func wide(_ keys: Int) -> String {
        "{" + (0..<keys).map { #""k\#($0)":1"# }.joined(separator: ",") + "}"
    }

    static func signUp(_ client: any TestClientProtocol, _ email: String, data: String) async throws -> TestResponse {
        try await client.send(.post, "/auth/v1/signup", json: #"{"email":"\#(email)","password":"correct-horse","data":\#(data)}"#)
    }

    @Test(arguments: [17, 508, 509, 510, 2_000])
    func aDeepSignUpIsRefusedAndTheAdminListStillAnswers(depth: Int) async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let key = try await test.server.serviceRoleKey(lifetime: 3600)
            let refused = try await Self.signUp(client, "deep@example.com", data: Self.nested(depth))
            #expect(refused.status == .unprocessableContent || refused.status == .badRequest, "\(refused.status) \(refused.text.prefix(200))")
            #expect(try await test.server.store.user(email: "deep@example.com") == nil)
            #expect(try await client.send(.get, "/auth/v1/admin/users", bearer: key).status == .ok)
        }
    }

    @Test func theLimitsAreExactOnSignUp() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            #expect(try await Self.signUp(client, "a@example.com", data: Self.nested(16)).status == .ok)
            #expect(try await Self.signUp(client, "b@example.com", data: Self.wide(1_000)).status == .ok)
            let wide = try await Self.signUp(client, "c@example.com", data: Self.wide(1_001))
            #expect(wide.status == .badRequest || wide.status == .unprocessableContent)
            #expect(wide.text.contains("1000"))
            let deep = try await Self.signUp(client, "d@example.com", data: Self.nested(17))
            #expect(deep.text.contains("16 levels"))
        }
    }

    /// `PUT /user`, `PATCH /v1/auth/me` and the admin API, each refused and nothing changed.
    @Test func everyOtherWritePathRefusesItToo() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let key = try await test.server.serviceRoleKey(lifetime: 3600)
            let session = try await client.signUp("ada@example.com")
            let deep = Self.nested(40)
            let put = try await client.send(.put, "/auth/v1/user", json: #"{"data":\#(deep)}"#, bearer: session.accessToken)
            #expect(put.status == .badRequest || put.status == .unprocessableContent, "\(put.status)")
            let patch = try await client.send(.patch, "/v1/auth/me", json: #"{"metadata":\#(deep)}"#, bearer: session.accessToken)
            #expect(patch.status == .badRequest, "\(patch.status) \(patch.text.prefix(200))")
            #expect(try await test.server.store.user(email: "ada@example.com")?.userMetadata.isEmpty == true)
            for field in ["user_metadata", "app_metadata"] {
                let created = try await client.send(
                    .post, "/auth/v1/admin/users", json: #"{"email":"bob@example.com","\#(field)":\#(deep)}"#, bearer: key)
                #expect(created.status == .badRequest || created.status == .unprocessableContent, "\(field): \(created.status)")
                #expect(try await test.server.store.user(email: "bob@example.com") == nil, "\(field)")
            }
            #expect(try await client.send(.get, "/auth/v1/admin/users", bearer: key).status == .ok)
        }
    }

    @Test func anEmailCodeRequestRefusesItBeforeAnyMail() async throws {
        try await EmailTestServer.run { test, client, mail in
            let response = try await client.send(
                .post, "/auth/v1/otp", json: #"{"email":"ada@example.com","create_user":true,"data":\#(Self.nested(40))}"#)
            #expect(response.status == .badRequest || response.status == .unprocessableContent, "\(response.status)")
            await #expect(throws: (any Error).self) { try await mail.next(within: 0.5) }
            let rows = try await test.server.store.withTransaction { db in
                try await db.raw("SELECT COUNT(*) AS n FROM one_time_tokens").first()?.decode(column: "n", as: Int.self)
            }
            #expect(rows == 0)
        }
    }
}
