import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// The read-through user cache behind `GET /user` and `GET /v1/auth/me`: a
/// change made through this server is seen by the very next read; one made
/// behind its back is seen within the stated bound, and not by chance sooner.
struct UserCacheTests {
    /// `user_metadata.plan` as `GET /auth/v1/user` shows it.
    func plan(_ client: any TestClientProtocol, _ token: String) async throws -> String? {
        let response = try await client.send(.get, "/auth/v1/user", bearer: token)
        let user = try response.decode(SessionUser.self)
        if case .string(let plan)? = user.userMetadata["plan"] { return plan }
        return nil
    }

    @Test func aChangeThroughTheServerIsSeenByTheNextRead() async throws {
        let server = try await TestServer.make { $0.sessionCheckCacheTTL = 5 }
        try await server.run { client in
            let session = try await client.signUp()
            #expect(try await plan(client, session.accessToken) == nil)
            let update = try await client.send(.put, "/auth/v1/user", json: #"{"data":{"plan":"pro"}}"#, bearer: session.accessToken)
            #expect(update.status == .ok)
            // The clock has not moved: only the store's invalidation can explain the new value.
            #expect(try await plan(client, session.accessToken) == "pro")
        }
    }

    @Test func aSignInElsewhereIsSeenByTheNextRead() async throws {
        let server = try await TestServer.make { $0.sessionCheckCacheTTL = 5 }
        try await server.run { client in
            let session = try await client.signUp()
            let before = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken).decode(SessionUser.self)
            await server.clock.advance(by: 2)
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .ok)
            let after = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken).decode(SessionUser.self)
            #expect(after.lastSignInAt != before.lastSignInAt)
        }
    }

    @Test func aChangeBehindTheServersBackIsSeenWithinTheStatedBound() async throws {
        let server = try await TestServer.make { $0.sessionCheckCacheTTL = 5 }
        try await server.run { client in
            let session = try await client.signUp()
            #expect(try await plan(client, session.accessToken) == nil)
            try await setPlanBehindTheServersBack(server, userID: session.user!.id)
            // Within the bound the remembered row may still be served ...
            #expect(try await plan(client, session.accessToken) == nil)
            await server.clock.advance(by: 5)
            // ... and at the bound it is not.
            #expect(try await plan(client, session.accessToken) == "team")
        }
    }

    @Test func aZeroBoundReadsTheRowEveryTime() async throws {
        let server = try await TestServer.make { $0.sessionCheckCacheTTL = 0 }
        try await server.run { client in
            let session = try await client.signUp()
            #expect(try await plan(client, session.accessToken) == nil)
            try await setPlanBehindTheServersBack(server, userID: session.user!.id)
            #expect(try await plan(client, session.accessToken) == "team")
            #expect(server.server.store.userCache.count == 0)
        }
    }

    @Test func aReadThatStartedBeforeAWriteCommittedIsNotRemembered() {
        let cache = UserCache(ttl: 5)
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        guard case .miss(let epoch) = cache.lookup(id: "u", now: now) else {
            Issue.record("an empty cache answered a hit")
            return
        }
        let stale = UserRecord(
            id: "u", email: "a@example.com", passwordHash: "", userMetadata: [:], createdAt: now, updatedAt: now,
            lastSignInAt: nil, emailConfirmedAt: now)
        cache.forgetAll()  // a write committed between the read and the remember
        cache.remember(stale, now: now, epoch: epoch)
        #expect(cache.count == 0)
    }

    /// Sets `user_metadata` with plain SQL, as another replica or an operator would.
    func setPlanBehindTheServersBack(_ server: TestServer, userID: String) async throws {
        try await server.server.store.withTransaction { db in
            try await db.raw(#"UPDATE users SET user_metadata = '{"plan":"team"}' WHERE id = \#(bind: userID)"#).run()
        }
    }
}
