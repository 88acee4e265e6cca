import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// ``SessionImport`` alone: what the user endpoint's answer to an imported,
/// unexpired access token makes of the import (confirmed, unanswered, rejected).
struct SessionImportFlowTests {
    static func importing(_ engine: RecordingEngine, expiresIn: TimeInterval? = 3600) async -> SessionImport {
        let now = await engine.now
        let exp = now.addingTimeInterval(expiresIn ?? 3600)
        return SessionImport(
            accessToken: AccountScript.jwt(sub: "user-1", exp: exp), refreshToken: "legacy-refresh",
            expiresAt: expiresIn.map { now.addingTimeInterval($0) }, user: nil)
    }

    @Test func aConfirmedTokenIsEstablishedWithTheServersUser() async throws {
        let engine = RecordingEngine([AccountScript.userBody()])
        let session = try await Self.importing(engine).perform(on: engine)
        #expect(session.user == AccountScript.user)
        #expect(await engine.calls == [.establish(session, keepingUnsaved: false)])
        let request = try #require(await engine.requests.first)
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer \(session.accessToken)")
    }

    @Test func anUnreachableServerKeepsTheTokenAndSaysOffline() async throws {
        let engine = RecordingEngine([.failure(.notConnectedToInternet)])
        let session = try await Self.importing(engine).perform(on: engine)
        #expect(await engine.calls == [.establish(session, keepingUnsaved: false), .markOffline(session)])
    }

    @Test(arguments: [503, 429])
    func aServerThatCannotSayNowKeepsTheTokenSignedIn(status: Int) async throws {
        let engine = RecordingEngine([.answer(status: status)])
        let session = try await Self.importing(engine).perform(on: engine)
        #expect(await engine.calls == [.establish(session, keepingUnsaved: false)])
    }

    @Test func aCaptivePortalsPageProvesNothingAndKeepsTheToken() async throws {
        let engine = RecordingEngine([.answer(status: 200, body: Data("<html>Sign in to the Wi-Fi</html>".utf8))])
        let session = try await Self.importing(engine).perform(on: engine)
        #expect(await engine.calls == [.establish(session, keepingUnsaved: false)])
    }

    @Test(arguments: [401, 400])
    func aRejectedTokenIsDecidedByARefresh(status: Int) async throws {
        let engine = RecordingEngine([.answer(status: status)])
        let session = try await Self.importing(engine).perform(on: engine)
        #expect(await engine.calls == [.establishImported(session)])
    }

    @Test func anUnknownExpiryIsRefreshedWithoutAsking() async throws {
        let engine = RecordingEngine()
        let flow = SessionImport(accessToken: "opaque-token", refreshToken: "legacy-refresh", expiresAt: nil, user: nil)
        let session = try await flow.perform(on: engine)
        #expect(await engine.requests.isEmpty)
        #expect(session.expiresAt == (await engine.serverNow))
        #expect(await engine.calls == [.establishImported(session)])
    }

    @Test func aRefreshTheServerRefusesThrowsItsVerdict() async {
        let engine = RecordingEngine([.answer(status: 401)])
        await engine.set(importedRefresh: .failure(.sessionExpired))
        await #expect(throws: SessionError.sessionExpired) {
            try await Self.importing(engine).perform(on: engine)
        }
    }

    @Test func malformedTokensAreRefusedBeforeAnythingIsSent() async {
        let engine = RecordingEngine()
        let flow = SessionImport(accessToken: "has spaces", refreshToken: "legacy-refresh", expiresAt: nil, user: nil)
        await #expect(throws: SessionError.invalidRequest) { try await flow.perform(on: engine) }
        #expect(await engine.requests.isEmpty)
        #expect(await engine.calls.isEmpty)
    }
}
