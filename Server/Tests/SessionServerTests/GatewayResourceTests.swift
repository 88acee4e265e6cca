import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import SessionServer
import Testing

/// Profile, devices and activities under `/v1`, each scoped to its user.
struct GatewayResourceTests {
    @Test(arguments: TestDatabase.all)
    func readsAndUpdatesTheProfile(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let me = try await client.send(.get, "/v1/auth/me", bearer: session.accessToken)
                .decode(SuccessEnvelope<SessionUser>.self)
            #expect(me.success)
            #expect(me.data.id == session.user!.id)
            let updated = try await client.send(
                .patch, "/v1/auth/me", json: #"{"first_name":"Ada","metadata":{"units":"km"}}"#, bearer: session.accessToken
            ).decode(SuccessEnvelope<SessionUser>.self)
            #expect(updated.data.userMetadata["first_name"] == "Ada")
            #expect(updated.data.userMetadata["units"] == "km")
        }
    }

    @Test(arguments: TestDatabase.all)
    func rejectsABadProfileUpdateNamingTheField(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let response = try await client.send(.patch, "/v1/auth/me", json: #"{"first_name":42}"#, bearer: session.accessToken)
            #expect(response.status == .badRequest)
            #expect(response.gatewayCode == "INVALID_REQUEST")
            #expect(response.text.contains("first_name"))
            let empty = try await client.send(.patch, "/v1/auth/me", json: #"{"first_name":"  "}"#, bearer: session.accessToken)
            #expect(empty.gatewayCode == "INVALID_REQUEST")
        }
    }

    @Test(arguments: TestDatabase.all)
    func deletingTheAccountEndsEverySession(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let phone = try await client.signUp()
            let laptop = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let deleted = try await client.send(.delete, "/v1/auth/me", bearer: phone.accessToken)
            #expect(deleted.status == .ok)
            #expect(try await client.send(.get, "/v1/auth/me", bearer: laptop.accessToken).gatewayCode == "SESSION_EXPIRED")
            #expect(try await client.refresh(laptop.refreshToken).goTrueErrorCode == "refresh_token_not_found")
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").goTrueErrorCode == "invalid_credentials")
        }
    }

    @Test(arguments: TestDatabase.all)
    func listsAndRevokesOwnDevicesOnly(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let phone = try await client.signUp()
            let laptop = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let grace = try await client.signUp("grace@example.com")
            let list = try await client.send(.get, "/v1/sessions", bearer: phone.accessToken)
                .decode(SuccessEnvelope<[DeviceSession]>.self)
            #expect(list.data.count == 2)
            #expect(list.data.filter(\.current).count == 1)
            let laptopID = try #require(try UnverifiedJWT(laptop.accessToken).claims.sessionId)
            // Grace cannot end Ada's laptop session.
            let foreign = try await client.send(.delete, "/v1/sessions/\(laptopID)", bearer: grace.accessToken)
            #expect(foreign.status == .notFound)
            #expect(try await client.refresh(laptop.refreshToken).status == .ok)
            let own = try await client.send(.delete, "/v1/sessions/\(laptopID)", bearer: phone.accessToken)
            #expect(own.status == .ok)
            #expect(try await client.send(.get, "/v1/sessions", bearer: laptop.accessToken).gatewayCode == "SESSION_EXPIRED")
        }
    }

    @Test(arguments: TestDatabase.all)
    func keepsActivitiesPrivateToTheirOwner(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let ada = try await client.signUp()
            let grace = try await client.signUp("grace@example.com")
            let created = try await client.send(
                .post, "/v1/activities", json: #"{"name":"Morning run","distance_m":5000,"started_at":"2026-01-01T07:00:00Z"}"#,
                bearer: ada.accessToken)
            #expect(created.status == .created)
            let activity = try created.decode(SuccessEnvelope<Activity>.self).data
            #expect(activity.distanceM == 5000)

            let adaList = try await client.send(.get, "/v1/activities", bearer: ada.accessToken)
                .decode(SuccessEnvelope<[Activity]>.self)
            #expect(adaList.data == [activity])
            let graceList = try await client.send(.get, "/v1/activities", bearer: grace.accessToken)
                .decode(SuccessEnvelope<[Activity]>.self)
            #expect(graceList.data.isEmpty)

            let foreignRead = try await client.send(.get, "/v1/activities/\(activity.id)", bearer: grace.accessToken)
            #expect(foreignRead.status == .notFound)
            #expect(foreignRead.gatewayCode == "NOT_FOUND")
            let foreignDelete = try await client.send(.delete, "/v1/activities/\(activity.id)", bearer: grace.accessToken)
            #expect(foreignDelete.status == .notFound)
            #expect(try await client.send(.get, "/v1/activities/\(activity.id)", bearer: ada.accessToken).status == .ok)
            #expect(try await client.send(.delete, "/v1/activities/\(activity.id)", bearer: ada.accessToken).status == .ok)
            #expect(try await client.send(.get, "/v1/activities/\(activity.id)", bearer: ada.accessToken).status == .notFound)
        }
    }
}
