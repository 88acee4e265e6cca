import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import SessionServer
import Testing

/// Hostile and broken requests: each gets its documented 4xx, never a 500, and nothing stored changes.
struct BadInputTests {
    @Test(arguments: [
        ("{not json", "bad_json"),
        ("", "bad_json"),
        ("[]", "validation_failed"),
        (#"{"email":42,"password":"x"}"#, "validation_failed"),
        (#"{"email":"a@example.com"}"#, "validation_failed"),
        (#"{"email":{},"password":"secret1"}"#, "validation_failed"),
    ])
    func rejectsBrokenSignUpBodies(body: String, code: String) async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let response = try await client.send(.post, "/auth/v1/signup", json: body)
            #expect(response.status == .badRequest)
            #expect(response.goTrueErrorCode == code)
            #expect(try await test.server.store.user(email: "a@example.com") == nil)
        }
    }

    @Test(arguments: TestDatabase.all)
    func namesTheFieldWithTheWrongType(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let response = try await client.send(.post, "/auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":7}"#)
            #expect(response.status == .badRequest)
            #expect(response.text.contains("refresh_token"))
        }
    }

    @Test(arguments: TestDatabase.all)
    func refusesBodiesOver64KiB(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let huge = #"{"email":"a@example.com","password":""# + String(repeating: "x", count: 70 * 1024) + #""}"#
            let goTrue = try await client.send(.post, "/auth/v1/signup", json: huge)
            #expect(goTrue.status == .contentTooLarge)
            let session = try await client.signUp()
            let gateway = try await client.send(
                .post, "/v1/activities", json: #"{"name":""# + String(repeating: "x", count: 70 * 1024) + #""}"#,
                bearer: session.accessToken)
            #expect(gateway.status == .contentTooLarge)
            #expect(gateway.gatewayCode == "INVALID_REQUEST")
        }
    }

    @Test(arguments: [
        (#"{"name":"","distance_m":1,"started_at":"2026-01-01T00:00:00Z"}"#, "name"),
        (#"{"name":"Run","distance_m":-1,"started_at":"2026-01-01T00:00:00Z"}"#, "distance_m"),
        (#"{"name":"Run","distance_m":"far","started_at":"2026-01-01T00:00:00Z"}"#, "distance_m"),
        (#"{"name":"Run","distance_m":1,"started_at":"yesterday"}"#, "started_at"),
        (#"{"name":"Run","distance_m":1}"#, "started_at"),
    ])
    func rejectsBadActivitiesNamingTheField(body: String, field: String) async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let response = try await client.send(.post, "/v1/activities", json: body, bearer: session.accessToken)
            #expect(response.status == .badRequest)
            #expect(response.gatewayCode == "INVALID_REQUEST")
            #expect(response.text.contains(field))
            #expect(try await test.server.store.activities(userID: session.user!.id).isEmpty)
        }
    }

    @Test(arguments: TestDatabase.all)
    func hostileRefreshTokensChangeNothing(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            for token in ["", String(repeating: "a", count: 10_000), "' OR 1=1 --", "\u{0}"] {
                let response = try await client.send(
                    .post, "/auth/v1/token?grant_type=refresh_token",
                    json: String(data: try JSONEncoder().encode(["refresh_token": token]), encoding: .utf8))
                #expect(response.status == .badRequest)
                #expect(response.goTrueErrorCode == "refresh_token_not_found")
            }
            // The real session is untouched.
            #expect(try await client.refresh(session.refreshToken).status == .ok)
        }
    }
}
