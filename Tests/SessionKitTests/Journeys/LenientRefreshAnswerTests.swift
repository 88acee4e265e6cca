import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// docs/PROTOCOL.md rule C: a 2xx refresh answer with both tokens is kept,
/// whatever else in it cannot be read. The server has already rotated.
@Suite(.timeLimit(.minutes(1)))
struct LenientRefreshAnswerTests {
    static let refreshToken = "Qv7mZk2pXw9L"

    /// Bodies from servers that are not GoTrue (Rails, Django, Laravel, a gateway in Node).
    static let bodies: [String] = [
        // A numeric user id, an `aud` array, a Rails-style date.
        #"{"access_token":"opaque-access-1","refresh_token":"Qv7mZk2pXw9L","expires_in":3600,"user":{"id":42,"aud":["app","api"],"email":"ada@example.com","created_at":"2026-01-01 01:00:00"}}"#,
        // `expires_in` as a string, a Postgres timestamp with microseconds and `+00`.
        #"{"access_token":"opaque-access-1","refresh_token":"Qv7mZk2pXw9L","expires_in":"3600","user":{"id":"42","email":"ada@example.com","created_at":"2026-01-01 01:00:00.123456+00"}}"#,
        // Fields that cannot be read at all: dropped, the answer kept.
        #"{"access_token":"opaque-access-1","refresh_token":"Qv7mZk2pXw9L","expires_in":"an hour","expires_at":"soon","user":{"id":42,"email":"ada@example.com","created_at":{"y":2026},"user_metadata":"none","identities":[{"bogus":true}]}}"#,
    ]

    @Test(arguments: bodies)
    func aRefreshAnswerWithBothTokensIsKept(body: String) async throws {
        let f = await Fixture.make()
        let old = try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(.body(Data(body.utf8)), on: .refresh)
        let token = try await f.client.accessToken()
        #expect(token == "opaque-access-1")
        let session = try #require(await f.client.currentSession)
        #expect(session.refreshToken == Self.refreshToken)
        #expect(session.refreshToken != old.refreshToken)
        #expect(session.user?.id == "42")
        #expect(session.user?.email == "ada@example.com")
        #expect(try await f.storedRefreshToken() == Self.refreshToken)
        if !body.contains("an hour") { #expect(session.expiresAt > f.clock.now) }
    }

    /// What was dropped is logged by name, never with a value or a token.
    @Test func droppedFieldsAreLoggedByName() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(.body(Data(Self.bodies[2].utf8)), on: .refresh)
        _ = try await f.client.accessToken()
        let line = try #require(f.logs.entries.first { $0.metadata["fields"] != nil })
        let fields = try #require(line.metadata["fields"])
        for name in ["expires_in", "expires_at", "user.created_at", "user.user_metadata", "user.identities"] {
            #expect(fields.contains(name), "\(name) not in \(fields)")
        }
        #expect(!line.line.contains("Qv7m"))
        #expect(!line.line.contains("an hour"))
    }

    @Test func readsTheShapesOfOtherServers() throws {
        let data = Data(Self.bodies[0].utf8)
        let response = try WireCoding.decoder().decode(TokenResponse.self, from: data)
        #expect(response.user?.aud == "app")
        #expect(response.user?.createdAt == Date(timeIntervalSince1970: 1_767_229_200))
        #expect(response.droppedFields.isEmpty)
        let postgres = try WireCoding.decoder().decode(TokenResponse.self, from: Data(Self.bodies[1].utf8))
        #expect(postgres.expiresIn == 3600)
        let created = try #require(postgres.user?.createdAt)
        #expect(abs(created.timeIntervalSince1970 - 1_767_229_200.123) < 0.001)
    }
}
