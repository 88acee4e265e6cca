import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Issue 40, item 1: `POST /signup` with neither email nor phone, as GoTrue's
/// `SignupAnonymously` (`internal/api/anonymous.go`) answers it.
struct AnonymousSignInTests {
    static func server(_ database: TestDatabase = .sqlite, on: Bool = true) async throws -> TestServer {
        try await TestServer.make(database) { $0.anonymousSignIns = on }
    }

    @Test(arguments: TestDatabase.all)
    func anAnonymousSignInGivesASessionThatSaysAnonymousAndRefreshes(database: TestDatabase) async throws {
        let server = try await Self.server(database)
        try await server.run { client in
            let response = try await client.send(.post, "/auth/v1/signup", json: #"{"data":{"theme":"dark"}}"#)
            #expect(response.status == .ok)
            let session = try response.decode(TokenResponse.self)
            let user = try #require(session.user)
            #expect(user.isAnonymous == true)
            #expect(user.email == nil)
            #expect(user.userMetadata["theme"] == "dark")
            // GoTrue writes no provider for an anonymous user (internal/api/signup.go, ToUserModel).
            #expect(user.appMetadata["provider"] == nil)
            #expect(user.identities == [])
            let claims = try payload(of: session.accessToken)
            #expect(claims["is_anonymous"] as? Bool == true)
            #expect(claims["role"] as? String == "authenticated")
            #expect(try amrMethods(of: session.accessToken) == ["anonymous"])

            // GET /user says it too.
            let me = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken).decode(SessionUser.self)
            #expect(me.isAnonymous == true)
            #expect(me.id == user.id)

            // A refresh like any other: a new pair, still anonymous, the same amr.
            await server.clock.advance(by: 120)
            let refreshed = try await client.refresh(session.refreshToken).decode(TokenResponse.self)
            #expect(refreshed.refreshToken != session.refreshToken)
            #expect(refreshed.user?.id == user.id)
            #expect(refreshed.user?.isAnonymous == true)
            #expect(try payload(of: refreshed.accessToken)["is_anonymous"] as? Bool == true)
            #expect(try amrMethods(of: refreshed.accessToken) == ["anonymous"])

            // The admin API's user JSON carries it as well.
            let key = try await server.server.serviceRoleKey(lifetime: 3600)
            let admin = try await client.send(.get, "/auth/v1/admin/users/\(user.id)", bearer: key).jsonObject()
            #expect(admin["is_anonymous"] as? Bool == true)
        }
    }

    @Test func anEmptyBodyObjectAndEmptyStringsAreAnonymousToo() async throws {
        let server = try await Self.server()
        try await server.run { client in
            for body in [#"{}"#, #"{"email":"","phone":""}"#] {
                let response = try await client.send(.post, "/auth/v1/signup", json: body)
                #expect(response.status == .ok, "\(body)")
                #expect(try response.decode(TokenResponse.self).user?.isAnonymous == true)
            }
        }
    }

    @Test func offByDefaultItAnswersAnonymousProviderDisabled() async throws {
        #expect(AuthServerConfiguration().anonymousSignIns == false)
        let server = try await TestServer.make()
        try await server.run { client in
            let response = try await client.send(.post, "/auth/v1/signup", json: #"{"data":{}}"#)
            // GoTrue: internal/api/api.go, the /signup route, NewUnprocessableEntityError.
            #expect(response.status == .unprocessableContent)
            #expect(response.goTrueErrorCode == "anonymous_provider_disabled")
            #expect(try response.jsonObject()["msg"] as? String == "Anonymous sign-ins are disabled")
            // A null email is no email, as GoTrue reads it (Go's JSON leaves the string empty).
            let null = try await client.send(.post, "/auth/v1/signup", json: #"{"email":null,"password":"secret1"}"#)
            #expect(null.goTrueErrorCode == "anonymous_provider_disabled")
            #expect(try await server.server.store.users(page: 1, perPage: 10).total == 0)
        }
    }

    @Test func passwordUsersSayTheyAreNotAnonymous() async throws {
        let server = try await Self.server()
        try await server.run { client in
            let session = try await client.signUp()
            #expect(session.user?.isAnonymous == false)
            #expect(session.user?.appMetadata["provider"] == "email")
            #expect(try payload(of: session.accessToken)["is_anonymous"] as? Bool == false)
            #expect(try amrMethods(of: session.accessToken) == ["password"])
            let me = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken).jsonObject()
            #expect(me["is_anonymous"] as? Bool == false)
        }
    }

    @Test func aSignUpWithEmailIsUnchangedWhetherAnonymousIsOnOrOff() async throws {
        for on in [true, false] {
            let server = try await Self.server(on: on)
            try await server.run { client in
                let session = try await client.signUp("grace@example.com")
                #expect(session.user?.email == "grace@example.com")
                let missing = try await client.send(.post, "/auth/v1/signup", json: #"{"email":"x@example.com"}"#)
                #expect(missing.status == .badRequest)
                #expect(missing.text.contains("password is required."))
                let number = try await client.send(.post, "/auth/v1/signup", json: #"{"email":5,"password":"correct-horse"}"#)
                #expect(number.status == .badRequest)
            }
        }
    }

    @Test func settingsShowTheSwitch() async throws {
        for on in [true, false] {
            let server = try await Self.server(on: on)
            try await server.run { client in
                let settings = try await client.send(.get, "/auth/v1/settings").jsonObject()
                let external = try #require(settings["external"] as? [String: Any])
                #expect(external["anonymous_users"] as? Bool == on)
            }
        }
    }

    @Test func theSwitchReadsFlagThenEnvironment() throws {
        #expect(try AuthServerConfiguration.resolve(.init(), environment: [:]).anonymousSignIns == false)
        #expect(
            try AuthServerConfiguration.resolve(.init(), environment: ["AUTH_SERVER_ANONYMOUS_SIGN_INS": "on"]).anonymousSignIns)
        var flags = ConfigurationOverrides()
        flags.anonymousSignIns = true
        #expect(try AuthServerConfiguration.resolve(flags, environment: ["AUTH_SERVER_ANONYMOUS_SIGN_INS": "off"]).anonymousSignIns)
        #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(.init(), environment: ["AUTH_SERVER_ANONYMOUS_SIGN_INS": "maybe"])
        }
    }
}
