import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Issue 40, item 1: `auth-server users prune-anonymous --older-than 30d`
/// deletes anonymous users unseen since the cutoff, and nobody else.
struct AnonymousPruneTests {
    @Test(arguments: TestDatabase.all)
    func pruneDeletesOnlyOldAnonymousUsers(database: TestDatabase) async throws {
        let server = try await TestServer.make(database) { $0.anonymousSignIns = true }
        try await server.run { client in
            let abandoned = try await client.send(.post, "/auth/v1/signup", json: "{}").decode(TokenResponse.self)
            let returning = try await client.send(.post, "/auth/v1/signup", json: "{}").decode(TokenResponse.self)
            let ada = try await client.signUp("ada@example.com")
            await server.clock.advance(by: 20 * 86_400)
            // Came back on day 20: a refresh counts as being seen.
            #expect(try await client.refresh(returning.refreshToken).status == .ok)
            await server.clock.advance(by: 11 * 86_400)
            let recent = try await client.send(.post, "/auth/v1/signup", json: "{}").decode(TokenResponse.self)

            let deleted = try await server.server.pruneAnonymousUsers(olderThan: try IdleAge(parsing: "30d"))
            #expect(deleted == 1)
            let store = server.server.store
            #expect(try await store.user(id: try #require(abandoned.user).id) == nil)
            #expect(try await store.user(id: try #require(returning.user).id) != nil)
            #expect(try await store.user(id: try #require(recent.user).id) != nil)
            // Not anonymous, unseen for 31 days: never touched.
            #expect(try await store.user(id: try #require(ada.user).id) != nil)
            // The deleted user's session is gone with it.
            #expect(try await client.refresh(abandoned.refreshToken).status == .badRequest)
            #expect(try await server.server.pruneAnonymousUsers(olderThan: try IdleAge(parsing: "30d")) == 0)
        }
    }

    @Test func theAgeIsAWholeNumberAndAUnit() throws {
        #expect(try IdleAge(parsing: "30d").seconds == 30 * 86_400)
        #expect(try IdleAge(parsing: "12h").seconds == 12 * 3600)
        #expect(try IdleAge(parsing: "90m").seconds == 5400)
        #expect(try IdleAge(parsing: "45s").seconds == 45)
        for bad in ["30", "d", "0d", "-1d", "1.5d", "3651d", "30w", ""] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try IdleAge(parsing: bad) }
        }
    }
}
