import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The state tells what the server has: the user it last described, offline
/// only when the auth server is unreachable, `sessionExpired` only when the
/// session ended, a suspension as a suspension.
@Suite(.timeLimit(.minutes(1)))
struct TruthfulStateTests {
    static let api = URL(string: "https://api.example.test")!

    /// The app's own API on another origin: unreachable, or answering a fixed body.
    struct WithAPI: HTTPTransport {
        let fake: FakeAuthBackend
        let answer: @Sendable (URLRequest) throws -> (Data, HTTPURLResponse)
        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            if request.url?.host == TruthfulStateTests.api.host { return try answer(request) }
            return try await fake.send(request)
        }
    }

    static func fixture(answer: @escaping @Sendable (URLRequest) throws -> (Data, HTTPURLResponse)) async -> Fixture {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        return await Fixture.make(
            clock: clock, fake: fake, transport: WithAPI(fake: fake, answer: answer), authorizedOrigins: [fake.baseURL, api])
    }

    @Test func meAndUpdateProfileUpdateTheSessionsUserSavedAndPublished() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        let session = try await f.signIn()
        let id = try #require(session.user?.id)

        let updated = try await f.client.updateProfile(ProfileUpdate(firstName: "Ada", metadata: ["team": "engines"]))
        #expect(updated.userMetadata["team"] == "engines")
        #expect(await f.client.currentSession?.user == updated)
        #expect(f.client.currentState.session?.user == updated)
        #expect(try await f.store.load()?.user == updated)

        let renamed = #"{"id":"\#(id)","aud":"authenticated","role":"authenticated","email":"ada.lovelace@example.com","user_metadata":{"team":"engines"}}"#
        await f.fake.inject(.body(Data(renamed.utf8)), on: .user)
        let me = try await f.client.me()
        #expect(me.email == "ada.lovelace@example.com")
        #expect(f.client.currentState.session?.user?.email == "ada.lovelace@example.com")
        #expect(try await f.store.load()?.user?.email == "ada.lovelace@example.com")

        let seen = await events.finish(f.client)
        #expect(seen.contains(.userUpdated(updated)))
        #expect(seen.contains(.userUpdated(me)))
    }

    /// An answer about someone else never renames the person.
    @Test func aUserOfAnotherIDIsNotTaken() async throws {
        let f = await Fixture.make()
        let session = try await f.signIn()
        await f.fake.inject(.body(Data(#"{"id":"someone-else","email":"eve@example.com"}"#.utf8)), on: .user)
        _ = try await f.client.me()
        #expect(await f.client.currentSession?.user == session.user)
    }

    @Test func anUnreachableAPIDoesNotMarkTheAuthServerOffline() async throws {
        let f = await Self.fixture { _ in throw URLError(.notConnectedToInternet) }
        let session = try await f.signIn()
        await #expect(throws: SessionError.network) { try await f.client.send(URLRequest(url: Self.api.appendingPathComponent("v1/feed"))) }
        #expect(f.client.currentState == .signedIn(session))

        // The auth server unreachable is offline, and its next answer clears it.
        await f.fake.inject(.drop(.notConnectedToInternet), on: .activities)
        await #expect(throws: SessionError.network) {
            try await f.client.send(URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities")))
        }
        #expect(f.client.currentState == .offline(session))
        _ = try await f.client.send(URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities")))
        #expect(f.client.currentState == .signedIn(session))
    }

    /// A GoTrue-shaped `session_expired` from the app's API ends nothing, so it is not `sessionExpired`.
    @Test func aSessionExpiredCodeFromAnAPIThatEndedNothingIsAnotherError() async throws {
        let f = await Self.fixture { request in
            let body = Data(#"{"code":400,"error_code":"session_expired","msg":"Session expired"}"#.utf8)
            return (body, HTTPURLResponse(url: request.url!, statusCode: 400, httpVersion: "HTTP/1.1", headerFields: nil)!)
        }
        let session = try await f.signIn()
        // The API's own answer, returned as it came (docs: HandlingStatesAndErrors).
        let (data, response) = try await f.client.send(URLRequest(url: Self.api.appendingPathComponent("v1/feed")))
        #expect(response.statusCode == 400)
        #expect(ServerErrorBody.parse(data)?.goTrueErrorCode == .sessionExpired)
        #expect(f.client.currentState == .signedIn(session))
    }

    @MainActor
    @Test func aSuspendedAccountStaysSuspendedInTheModel() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        let model = SessionModel(client: f.client)
        let running = Task { await model.run() }
        defer { running.cancel() }
        f.expireAccessToken()
        await f.fake.inject(.goTrueError(status: 403, code: .userBanned, message: "User is banned"), on: .refresh)
        await #expect(throws: SessionError.accountSuspended) { try await f.client.refresh() }
        #expect(await SessionModelTests.until { model.lastError != nil })
        #expect(model.lastError == .accountSuspended)
        #expect(model.lastError != .sessionExpired)
    }
}
