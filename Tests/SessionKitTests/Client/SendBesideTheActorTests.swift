import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// `send` to the app's own API beside the actor (issue 44; docs/PROTOCOL.md,
/// "Requests beside the actor"): with a valid token it never enters the actor,
/// and every answer the engine acts on (a rejection, a redirect, no answer)
/// reaches the engine with the token that was sent, as on the actor path.
/// No timing: the tests count clock reads and watch where they ran
/// (``AccessTokenExecutorTests/ProbeClock``).
@Suite(.timeLimit(.minutes(1)))
struct SendBesideTheActorTests {
    static func request(_ path: String = "runs") -> URLRequest { URLRequest(url: AppAPI.url(path)) }

    @MainActor @Test func aRequestToTheAppsAPIWithAValidTokenNeverEntersTheActor() async throws {
        let rig = await BesideTheActorRig.make()
        let session = try await rig.signIn()
        var statuses: [Int] = []
        rig.probe.arm()
        for _ in 0..<20 {
            let (_, response) = try await rig.client.send(Self.request())
            statuses.append(response.statusCode)
        }
        let reads = rig.probe.disarm()
        #expect(statuses == Array(repeating: 200, count: 20))
        // One read a request (the token's expiry), on the main queue: no hop
        // onto the actor, whose path reads the clock three times a request, there.
        #expect(reads.count == 20)
        #expect(reads.allSatisfy { $0 }, "send read the clock off the main queue: it entered the actor")
        #expect(rig.api.tokensSeen == Array(repeating: session.accessToken, count: 20))
        await rig.client.shutdown()
    }

    /// Every answer of the auth server's origin is a clock sample the actor must take.
    @Test func theAuthServersOwnOriginStillGoesThroughTheActor() async throws {
        let rig = await BesideTheActorRig.make()
        try await rig.signIn()
        var request = URLRequest(url: rig.fake.baseURL.appendingPathComponent("auth/v1/user"))
        request.httpMethod = "GET"
        #expect(rig.client.tokenBesideTheActor(for: request) == nil)
        rig.probe.arm()
        let (_, response) = try await rig.client.send(request)
        let reads = rig.probe.disarm()
        #expect(response.statusCode == 200)
        #expect(reads.count >= 3, "the auth server's answer did not go through the actor: \(reads.count) clock reads")
        await rig.client.shutdown()
    }

    /// The rejection the planted `fast-path-skips-rejection` hands to the app:
    /// the engine refreshes once (never answered by the rejected token) and retries.
    @Test func aRejectionBesideTheActorIsRefreshedAndRetriedByTheEngine() async throws {
        let api = AppAPI { request, token, earlier in
            // The token the API saw first is rejected (its JWKS rotated, say); any other is fine.
            token == (earlier.first ?? token)
                ? AppAPI.respond(request, 401, #"{"message":"jwt expired"}"#) : AppAPI.respond(request, 200, "{}")
        }
        let rig = await BesideTheActorRig.make(api: api)
        let session = try await rig.signIn()
        let (_, response) = try await rig.client.send(Self.request())
        #expect(response.statusCode == 200, "the app got the rejection the engine should have handled")
        #expect(await rig.fake.count(.refresh) == 1)
        let tokens = rig.api.tokensSeen
        #expect(tokens.count == 2)
        #expect(tokens.first == session.accessToken)
        let refreshed = try #require(await rig.client.currentSession)
        #expect(tokens.last == refreshed.accessToken)
        #expect(refreshed.accessToken != session.accessToken)
        // The refreshed token is published: the next request goes beside the actor with it.
        rig.probe.arm()
        let (_, again) = try await rig.client.send(Self.request())
        #expect(rig.probe.disarm().count == 1)
        #expect(again.statusCode == 200)
        #expect(rig.api.tokensSeen.last == refreshed.accessToken)
        await rig.client.shutdown()
    }

    /// A session the app's API says is over, after the refresh and retry, ends
    /// as on the actor path: thrown, `expired`, announced.
    @Test func anEndedSessionMetBesideTheActorEndsTheSession() async throws {
        let api = AppAPI { request, _, _ in
            AppAPI.respond(request, 401, AppAPI.sessionExpired, headers: ["Content-Type": "application/json"])
        }
        let rig = await BesideTheActorRig.make(api: api)
        try await rig.signIn()
        await #expect(throws: SessionError.sessionExpired) { _ = try await rig.client.send(Self.request()) }
        #expect(await rig.fake.count(.refresh) == 1)
        #expect(rig.api.tokensSeen.count == 2)
        guard case .expired = rig.client.currentState else {
            Issue.record("the session was kept: \(rig.client.currentState)")
            return
        }
        #expect(await rig.client.currentSession == nil)
        await rig.client.shutdown()
    }

    /// No answer from the app's API: thrown as on the actor path, and the
    /// session stays signed in (offline is the auth server's state).
    @Test func noAnswerBesideTheActorIsThrownAndKeepsTheSession() async throws {
        let api = AppAPI { _, _, _ in throw URLError(.timedOut) }
        let rig = await BesideTheActorRig.make(api: api)
        let session = try await rig.signIn()
        let expected = ResponseClassifier.transportError(URLError(.timedOut))
        await #expect(throws: expected) { _ = try await rig.client.send(Self.request()) }
        #expect(rig.client.currentState == .signedIn(session))
        #expect(await rig.fake.count(.refresh) == 0)
        await rig.client.shutdown()
    }

    /// A token the refresh machine calls expired (its leeway included) is refreshed through the actor before it is sent.
    @Test func anExpiredTokenIsRefreshedThroughTheActorBeforeTheRequest() async throws {
        let rig = await BesideTheActorRig.make()
        let session = try await rig.signIn()
        rig.expireAccessToken()
        #expect(rig.client.tokenBesideTheActor(for: Self.request()) == nil)
        let (_, response) = try await rig.client.send(Self.request())
        #expect(response.statusCode == 200)
        #expect(await rig.fake.count(.refresh) == 1)
        #expect(rig.api.tokensSeen.count == 1)
        #expect(rig.api.tokensSeen.first != session.accessToken)
        await rig.client.shutdown()
    }

    /// While offline, requests go through the actor as before; `accessToken()` is unchanged.
    @Test func offlineRequestsGoThroughTheActor() async throws {
        let rig = await BesideTheActorRig.make()
        let session = try await rig.signIn()
        await rig.client.markOffline(session)
        #expect(rig.client.tokenBesideTheActor(for: Self.request()) == nil)
        #expect(try await rig.client.accessToken() == session.accessToken)
        rig.probe.arm()
        let (_, response) = try await rig.client.send(Self.request())
        #expect(rig.probe.disarm().count >= 3)
        #expect(response.statusCode == 200)
        await rig.client.shutdown()
    }

    /// A redirect met beside the actor is followed by the engine, each hop
    /// authorized afresh; one to an origin the token may not go to is refused, nothing sent.
    @Test func aRedirectBesideTheActorIsFollowedOnlyWhereTheTokenMayGo() async throws {
        let api = AppAPI { request, _, _ in
            switch request.url?.path {
            case "/old": AppAPI.respond(request, 307, "", headers: ["Location": "/new"])
            case "/away": AppAPI.respond(request, 302, "", headers: ["Location": "https://elsewhere.example/x"])
            default: AppAPI.respond(request, 200, "{}")
            }
        }
        let rig = await BesideTheActorRig.make(api: api)
        let session = try await rig.signIn()
        let (_, response) = try await rig.client.send(Self.request("old"))
        #expect(response.statusCode == 200)
        #expect(response.url?.path == "/new")
        #expect(rig.api.tokensSeen == [session.accessToken, session.accessToken])
        await #expect(throws: SessionError.originNotAllowed) { _ = try await rig.client.send(Self.request("away")) }
        #expect(rig.api.tokensSeen.count == 3)
        await rig.client.shutdown()
    }
}
