import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// What proxies, gateways, WAFs and captive portals answer in place of the
/// auth server. None of them is the auth server's verdict on the session.
struct IntermediaryAnswer: Sendable, CustomStringConvertible {
    let description: String
    let fault: FakeFault

    static let html = Data("<html><head><title>401 Authorization Required</title></head><body>nginx</body></html>".utf8)
    static let portal = Data("<!DOCTYPE html><html><body><form action=\"/login\">Welcome to Airport Wi-Fi</form></body></html>".utf8)

    static let all: [IntermediaryAnswer] = [
        .init(description: "401 HTML (nginx, a WAF)", fault: .status(401, body: html, headers: ["Content-Type": "text/html"])),
        .init(description: "403 HTML (a CDN's block page)", fault: .status(403, body: html, headers: ["Content-Type": "text/html"])),
        .init(
            description: "401 Invalid API key (Supabase's gateway after a key rotation)",
            fault: .status(401, body: Data(#"{"message":"Invalid API key"}"#.utf8), headers: ["Content-Type": "application/json"])),
        .init(description: "200 captive portal page", fault: .status(200, body: portal, headers: ["Content-Type": "text/html"])),
        .init(description: "302 redirect to a portal", fault: .status(302, headers: ["Location": "http://portal.example/login"])),
        .init(description: "418 unknown 4xx", fault: .status(418, body: Data("I'm a teapot".utf8))),
        .init(description: "400 JSON without a code", fault: .status(400, body: Data(#"{"ok":false}"#.utf8))),
    ]
}

/// Only the auth server's own verdict ends a session: every answer in
/// between keeps it, and the session works again once the fault clears.
@Suite(.timeLimit(.minutes(1)))
struct IntermediaryAnswerTests {
    static let cases: [(World, IntermediaryAnswer)] = World.allCases.flatMap { world in
        IntermediaryAnswer.all.map { (world, $0) }
    }

    @Test(arguments: cases)
    func refreshRefusedInBetweenKeepsTheSession(world: World, answer: IntermediaryAnswer) async throws {
        let f = await WorldFixture.make(world)
        let events = EventLog(f.client)
        let old = try await f.signIn()
        f.expireAccessToken()
        await f.injectOnRefresh(answer.fault)
        await #expect(throws: SessionError.self) { try await f.client.accessToken() }
        // Kept: in memory, in the store, and still honoured by the server.
        #expect(await f.client.currentSession?.refreshToken == old.refreshToken)
        #expect(try await f.storedRefreshToken() == old.refreshToken)
        #expect(f.client.currentState.isSignedIn)
        #expect(await f.serverHonours(old.refreshToken))
        // Usable once the fault clears.
        let renewed = try await f.client.refresh()
        #expect(renewed.refreshToken != old.refreshToken)
        #expect(await f.serverHonours(renewed.refreshToken))
        #expect(try await f.storedRefreshToken() == renewed.refreshToken)
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 0)
        #expect(!seen.contains(.signedOut))
    }

    @Test(arguments: cases)
    func apiCallAnsweredInBetweenKeepsTheSession(world: World, answer: IntermediaryAnswer) async throws {
        let f = await WorldFixture.make(world)
        let events = EventLog(f.client)
        try await f.signIn()
        await f.injectOnMe(answer.fault)
        do {
            _ = try await f.client.me()
        } catch {
            // Some answers are the caller's error (a 403 page, a portal): that is fine, a sign-out is not.
        }
        #expect(f.client.currentState.isSignedIn)
        let session = try #require(await f.client.currentSession)
        #expect(try await f.storedRefreshToken() == session.refreshToken)
        #expect(await f.serverHonours(session.refreshToken))
        // Usable once the fault clears.
        let user = try await f.client.me()
        #expect(user.email == WorldFixture.email)
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 0)
        #expect(!seen.contains(.signedOut))
    }

    @Test(arguments: World.allCases)
    func aGenuineEndStillEndsTheSessionOnce(world: World) async throws {
        let f = await WorldFixture.make(world)
        let events = EventLog(f.client)
        try await f.signIn()
        f.expireAccessToken()
        await f.endSessionsOnServer()
        await #expect(throws: SessionError.sessionExpired) { try await f.client.accessToken() }
        #expect(f.client.currentState == .expired(reason: SessionError.sessionExpiredMessage))
        #expect(try await f.store.load()?.holdsSession != true)
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 1)
    }

    @Test func aRefusedRefreshIsTypedAndSaysWhoAnswered() async throws {
        let f = await WorldFixture.make(.goTrue)
        try await f.signIn()
        f.expireAccessToken()
        await f.injectOnRefresh(IntermediaryAnswer.all[2].fault)
        do {
            _ = try await f.client.accessToken()
            Issue.record("expected a refusal")
        } catch {
            #expect(error == .refreshRefused)
            #expect(error.status == 401)
            #expect(error.isTransient)
            #expect(error.underlying?.contains("Invalid API key") == true)
        }
    }

    @Test func refusalsAskForAttentionOnlyAfterALifetimeAndNeverSignOut() async throws {
        let f = await WorldFixture.make(.goTrue)
        let old = try await f.signIn()
        f.expireAccessToken()
        let refusal = FakeFault.status(401, body: IntermediaryAnswer.html, headers: ["Content-Type": "text/html"])
        await f.injectOnRefresh(refusal, times: 100)
        // Many refusals within a few minutes: still only offline, never "needs attention" yet.
        for _ in 0..<8 {
            _ = try? await f.client.refresh()
            f.clock.set(to: f.clock.now.addingTimeInterval(30))
        }
        if case .needsAttention = f.client.currentState { Issue.record("asked for attention before a token lifetime passed") }
        #expect(f.client.currentState == .offline(old))
        // After one lifetime of refusals it asks for attention, and still keeps the session.
        f.clock.set(to: f.clock.now.addingTimeInterval(SessionDefaults.accessTokenLifetime))
        _ = try? await f.client.refresh()
        guard case .needsAttention(let kept, let reason) = f.client.currentState else {
            Issue.record("expected needsAttention, got \(f.client.currentState)")
            return
        }
        #expect(kept.refreshToken == old.refreshToken)
        #expect(reason == .refreshRefused)
        #expect(try await f.storedRefreshToken() == old.refreshToken)
        // And recovers when the gateway lets it through again.
        await f.goTrue?.clearFaults()
        let renewed = try await f.client.refresh()
        #expect(f.client.currentState == .signedIn(renewed))
    }
}
