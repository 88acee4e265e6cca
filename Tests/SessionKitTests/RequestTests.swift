import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

@Suite(.timeLimit(.minutes(1)))
struct RequestTests {
    func activities(_ f: Fixture) -> URLRequest {
        URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities"))
    }

    @Test func sendAttachesBearerAndAPIKey() async throws {
        let f = await Fixture.make()
        let session = try await f.signIn()
        let (data, response) = try await f.client.send(activities(f))
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("\"success\":true"))
        // Bearer from the session; and the fake only answers 200 for its own tokens.
        #expect(await f.fake.count(.activities) == 1)
        #expect(session.accessToken.split(separator: ".").count == 3)
    }

    @Test func unauthorizedForcesOneRefreshAndRetriesOnce() async throws {
        let f = await Fixture.make()
        let old = try await f.signIn()
        await f.fake.inject(.gatewayError(status: 401, code: .sessionExpired), on: .activities)
        let (_, response) = try await f.client.send(activities(f))
        #expect(response.statusCode == 200)
        #expect(await f.fake.count(.refresh) == 1)
        #expect(await f.fake.count(.activities) == 2)
        #expect(await f.client.currentSession?.accessToken != old.accessToken)
    }

    @Test func goTrueBadJWTForcesARefreshToo() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        await f.fake.inject(.goTrueError(status: 403, code: .badJWT), on: .user)
        _ = try await f.client.me()
        #expect(await f.fake.count(.refresh) == 1)
        #expect(await f.fake.count(.user) == 2)
    }

    @Test func forbiddenIsNeverRefreshed() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        await f.fake.inject(.gatewayError(status: 403, code: .forbidden), on: .activities)
        // The API's own verdict reaches the app as an answer (docs: HandlingStatesAndErrors).
        let (data, response) = try await f.client.send(activities(f))
        #expect(response.statusCode == 403)
        #expect(ServerErrorBody.parse(data)?.gatewayCode == .forbidden)
        #expect(await f.fake.count(.refresh) == 0)
        #expect(f.client.currentState.isSignedIn)
    }

    @Test func authRequiredAfterTheRetrySignsOutWithoutAMessage() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        try await f.signIn()
        await f.fake.inject(.gatewayError(status: 401, code: .authRequired), on: .activities, times: 2)
        await #expect(throws: SessionError.authRequired) { try await f.client.send(activities(f)) }
        #expect(f.client.currentState == .signedOut)
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 0)
        #expect(seen.contains(.signedOut))
    }

    @Test func anAPIsErrorAnswersReachTheAppWithTheirBodies() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        await f.fake.inject(.gatewayError(status: 400, code: .invalidRequest, message: "name is required"), on: .activities)
        let (data, response) = try await f.client.send(activities(f))
        #expect(response.statusCode == 400)
        #expect(ServerErrorBody.parse(data)?.gatewayCode == .invalidRequest)
        #expect(String(decoding: data, as: UTF8.self).contains("name is required"))
        await f.fake.inject(.gatewayError(status: 500, code: .internal), on: .activities)
        #expect(try await f.client.send(activities(f)).1.statusCode == 500)
        #expect(f.client.currentState.isSignedIn)
    }

    @Test func networkFailureOnARequestIsOfflineNotSignedOut() async throws {
        let f = await Fixture.make()
        let session = try await f.signIn()
        await f.fake.inject(.drop(.notConnectedToInternet), on: .activities)
        await #expect(throws: SessionError.network) { try await f.client.send(activities(f)) }
        #expect(f.client.currentState == .offline(session))
        _ = try await f.client.send(activities(f))
        #expect(f.client.currentState == .signedIn(session))
    }

    @Test func signInWithWrongPasswordIsInvalidCredentials() async throws {
        let f = await Fixture.make()
        await #expect(throws: SessionError.invalidCredentials) {
            try await f.client.signIn(email: Fixture.email, password: "wrong")
        }
        // Never restored, so the client does not claim to know more than "not signed in".
        #expect(f.client.currentState.session == nil)
    }

    @Test func signInThatCannotBeSavedFailsAndChangesNothing() async throws {
        let flaky = FlakySessionStore(wrapping: InMemorySessionStore())
        let f = await Fixture.make(store: flaky)
        await flaky.failNextSaves(1)
        await #expect(throws: SessionError.persistenceFailed) { try await f.signIn() }
        #expect(f.client.currentState.session == nil)
        #expect(await f.client.currentSession == nil)
    }

    @Test func signUpSignsInAndRejectsDuplicates() async throws {
        let f = await Fixture.make()
        let result = try await f.client.signUp(email: "grace@example.com", password: "hopper-123", data: ["first_name": "Grace"])
        guard case .signedIn(let session) = result else {
            Issue.record("expected a session")
            return
        }
        #expect(session.user?.email == "grace@example.com")
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
        await #expect(throws: SessionError.conflict) {
            try await f.client.signUp(email: "grace@example.com", password: "hopper-123")
        }
    }

    @Test func meProfileSessionsAndDeletion() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        let me = try await f.client.me()
        #expect(me.email == Fixture.email)
        let updated = try await f.client.updateProfile(ProfileUpdate(firstName: "Ada"))
        #expect(updated.userMetadata["first_name"] == "Ada")
        let devices = try await f.client.deviceSessions()
        #expect(devices.count == 1)
        #expect(devices.first?.current == true)
        try await f.client.deleteAccount()
        #expect(f.client.currentState == .signedOut)
        #expect(try await f.store.load()?.holdsSession != true)
    }

    @Test func signOutScopes() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let phone = await Fixture.make(clock: clock, fake: fake)
        let laptop = await Fixture.make(clock: clock, fake: fake)
        let phoneSession = try await phone.signIn()
        let laptopSession = try await laptop.signIn()

        try await phone.client.signOut(scope: .others)
        #expect(phone.client.currentState.isSignedIn)
        #expect(await fake.isFamilyActive(refreshToken: phoneSession.refreshToken))
        #expect(await !fake.isFamilyActive(refreshToken: laptopSession.refreshToken))

        try await phone.client.signOut(scope: .local)
        #expect(phone.client.currentState == .signedOut)
        #expect(try await phone.store.load()?.holdsSession != true)
        #expect(await !fake.isFamilyActive(refreshToken: phoneSession.refreshToken))
        #expect(await fake.count(.logout) == 2)
    }

    @Test func signOutWhileOfflineStillSignsOutHere() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        await f.fake.inject(.drop(.notConnectedToInternet), on: .logout)
        try await f.client.signOut()
        #expect(f.client.currentState == .signedOut)
        #expect(try await f.store.load()?.holdsSession != true)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ForeignRejectionTests {
    @Test func aBare401AfterTheRetryKeepsTheSession() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        await f.fake.inject(.status(401), on: .activities, times: 2)
        let request = URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities"))
        // The API's answer, not `.authRequired`: apps route that one to the sign-in screen.
        #expect(try await f.client.send(request).1.statusCode == 401)
        #expect(f.client.currentState.isSignedIn)
        #expect(await f.fake.count(.refresh) == 1)
        #expect(try await f.store.load() != nil)
    }

    @Test func sessionExpiredAfterTheRetryEndsTheSessionOnce() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        try await f.signIn()
        await f.fake.inject(.gatewayError(status: 401, code: .sessionExpired), on: .activities, times: 2)
        let request = URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities"))
        await #expect(throws: SessionError.sessionExpired) { try await f.client.send(request) }
        #expect(f.client.currentState == .expired(reason: SessionError.sessionExpiredMessage))
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 1)
    }
}
