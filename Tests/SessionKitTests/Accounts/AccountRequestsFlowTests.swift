import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// ``AccountRequests`` alone: the gateway-only calls on a GoTrue server
/// without the gateway (hosted Supabase) answer "unsupported", not "not found".
struct AccountRequestsFlowTests {
    static func signedIn(_ script: [ScriptedResponse]) async -> RecordingEngine {
        let engine = RecordingEngine(script)
        let now = await engine.now
        await engine.set(current: Session(accessToken: "access-1", refreshToken: "refresh-1", expiresAt: now.addingTimeInterval(3600), user: AccountScript.user))
        return engine
    }

    @Test func updateProfileOnAServerWithoutTheGatewayIsUnsupported() async {
        let engine = await Self.signedIn([.answer(status: 404)])
        let error = await #expect(throws: SessionError.unsupported) {
            try await AccountRequests().updateProfile(ProfileUpdate(firstName: "Ada"), on: engine)
        }
        #expect(error?.message.contains("updateUser") == true)
        #expect(await engine.calls.isEmpty)
    }

    @Test func deleteAccountOnAServerWithoutTheGatewayIsUnsupportedAndKeepsTheSession() async {
        let engine = await Self.signedIn([.answer(status: 404)])
        let error = await #expect(throws: SessionError.unsupported) {
            try await AccountRequests().deleteAccount(currentPassword: nil, nonce: nil, on: engine)
        }
        #expect(error?.message.contains("Edge Function") == true)
        #expect(await engine.calls.isEmpty)
        #expect(await engine.currentSession != nil)
    }

    @Test func aNotFoundFromAnotherBackendStaysNotFound() async {
        let custom = CustomBackend(
            refreshURL: URL(string: "https://api.example.com/refresh")!, meURL: URL(string: "https://api.example.com/me")!,
            sessionsURL: URL(string: "https://api.example.com/sessions")!)
        let engine = RecordingEngine(backend: custom, [.answer(status: 404)])
        await engine.set(current: Session(accessToken: "access-1", refreshToken: "refresh-1", expiresAt: Date.distantFuture))
        await #expect(throws: SessionError.notFound) {
            try await AccountRequests().deviceSessions(on: engine)
        }
    }

    @Test func deleteAccountEndsTheSessionOnceTheServerDeletedIt() async throws {
        let engine = await Self.signedIn([.answer(status: 200, body: Data(#"{"success":true,"data":{}}"#.utf8))])
        try await AccountRequests().deleteAccount(currentPassword: "pw", nonce: " 123-456 ", on: engine)
        #expect(await engine.calls == [.endSession])
        let body = try #require(await engine.requests.first?.httpBody)
        #expect(String(decoding: body, as: UTF8.self).contains("123456"))
    }

    @Test func meReplacesTheUserWithTheServersAnswer() async throws {
        let updated = SessionUser(id: "user-1", email: "ada@example.org", createdAt: nil, updatedAt: nil)
        let engine = await Self.signedIn([AccountScript.userBody(updated)])
        let user = try await AccountRequests().me(on: engine)
        #expect(user == updated)
        #expect(await engine.calls == [.replaceUser(updated)])
    }
}
