import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 37, item 7: after a ban, access tokens kept working for up to an
/// hour on `PUT /user`, `/v1/*` and `/reauthenticate` (the ban was read only
/// at the next refresh). Every route behind the session check refuses a
/// banned user's token at once; the refresh says why (`user_banned`).
struct BanTakesEffectAtOnceTests {
    @Test(arguments: TestDatabase.all)
    func aBannedPersonsTokenIsRefusedAtOnce(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp("ada@example.com")
            let id = try #require(session.user?.id)
            // Read once, so a cached "live" answer is there for the ban to void.
            #expect(try await client.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .ok)
            let key = try await test.server.serviceRoleKey(lifetime: 3600)
            #expect(try await client.send(.put, "/auth/v1/admin/users/\(id)", json: #"{"ban_duration":"24h"}"#, bearer: key).status == .ok)

            #expect(try await client.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/sessions", bearer: session.accessToken).status == .unauthorized)
            let update = try await client.send(.put, "/auth/v1/user", json: #"{"data":{"x":1}}"#, bearer: session.accessToken)
            // GoTrue's routes answer an ended session as GoTrue does: 403 `session_not_found`,
            // a code every GoTrue client takes as the end of the session (docs/DESIGN.md).
            #expect(update.status == .forbidden)
            #expect(update.goTrueErrorCode == "session_not_found")
            let read = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken)
            #expect(read.status == .forbidden)
            #expect(read.goTrueErrorCode == "session_not_found")
            #expect(try await client.refresh(session.refreshToken).goTrueErrorCode == "user_banned")
            // Nothing was written by the refused update.
            #expect(try await test.server.store.user(id: id)?.userMetadata["x"] == nil)

            // Lifted, the session goes on.
            #expect(try await client.send(.put, "/auth/v1/admin/users/\(id)", json: #"{"ban_duration":"none"}"#, bearer: key).status == .ok)
            #expect(try await client.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .ok)
        }
    }
}
