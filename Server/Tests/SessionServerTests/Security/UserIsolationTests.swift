import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Every `/v1` route, called by one user on another user's data: reads see
/// only the caller's rows, writes and deletes aimed at another user's id are
/// 404, and the other user's data is unchanged afterwards.
struct UserIsolationTests {
    @Test(arguments: TestDatabase.all)
    func everyGatewayRouteIsScopedToTheCaller(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let ann = try await client.signUp("ann@example.com")
            let ben = try await client.signUp("ben@example.com")
            let annSession = try #require(try UnverifiedJWT(ann.accessToken).claims.sessionId)
            let created = try await client.send(
                .post, "/v1/activities", json: #"{"name":"Ann's run","distance_m":5000,"started_at":"2026-01-01T07:00:00Z"}"#,
                bearer: ann.accessToken)
            #expect(created.status == .created)
            let activityID = try #require(try created.jsonObject()["data"] as? [String: Any])["id"] as? String
            let annActivity = try #require(activityID)

            // Reads: Ben sees himself and his own rows only.
            let me = try await client.send(.get, "/v1/auth/me", bearer: ben.accessToken)
            #expect((try me.jsonObject()["data"] as? [String: Any])?["id"] as? String == ben.user!.id)
            let sessions = try await client.send(.get, "/v1/sessions", bearer: ben.accessToken)
            let sessionRows = try #require(try sessions.jsonObject()["data"] as? [[String: Any]])
            #expect(sessionRows.count == 1)
            #expect(!sessionRows.contains { $0["id"] as? String == annSession })
            let list = try await client.send(.get, "/v1/activities", bearer: ben.accessToken)
            #expect((try list.jsonObject()["data"] as? [Any])?.isEmpty == true)

            // Another user's ids: 404 on every route that takes one.
            for (method, uri) in [
                (HTTPRequest.Method.get, "/v1/activities/\(annActivity)"),
                (.delete, "/v1/activities/\(annActivity)"),
                (.delete, "/v1/sessions/\(annSession)"),
            ] {
                let response = try await client.send(method, uri, bearer: ben.accessToken)
                #expect(response.status == .notFound, "\(method) \(uri): \(response.status)")
                #expect(response.gatewayCode == "NOT_FOUND", "\(uri)")
            }

            // Ben's writes to "me" touch Ben only.
            let patch = try await client.send(.patch, "/v1/auth/me", json: #"{"first_name":"Ben"}"#, bearer: ben.accessToken)
            #expect(patch.status == .ok)
            let deleted = try await client.send(.delete, "/v1/auth/me", bearer: ben.accessToken)
            #expect(deleted.status == .ok)

            // Ann is untouched: her row, her session, her profile.
            let own = try await client.send(.get, "/v1/activities/\(annActivity)", bearer: ann.accessToken)
            #expect(own.status == .ok)
            let annMe = try await client.send(.get, "/v1/auth/me", bearer: ann.accessToken)
            #expect(annMe.status == .ok)
            let annUser = try #require(try annMe.jsonObject()["data"] as? [String: Any])
            #expect((annUser["user_metadata"] as? [String: Any])?["first_name"] == nil)
            #expect(try await client.refresh(ann.refreshToken).status == .ok)
            // And Ben is gone.
            #expect(try await client.send(.get, "/v1/auth/me", bearer: ben.accessToken).status == .unauthorized)
        }
    }
}
