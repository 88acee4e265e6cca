import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The upgrade flows alone, against a recording engine: the wire they send, a backend
/// that is not GoTrue, and a proxy's HTML page where GoTrue's JSON was due.
struct AccountUpgradeWireTests {
    static func signedIn(_ script: [ScriptedResponse], backend: (any SessionBackend)? = nil) async -> RecordingEngine {
        let engine = backend.map { RecordingEngine(backend: $0, script) } ?? RecordingEngine(script)
        let now = await engine.now
        await engine.set(current: Session(
            accessToken: "access-1", refreshToken: "refresh-1", expiresAt: now.addingTimeInterval(3600),
            user: SessionUser(id: "user-1", email: nil, isAnonymous: true, createdAt: nil, updatedAt: nil)))
        return engine
    }

    static let custom = CustomBackend(
        refreshURL: URL(string: "https://api.example.com/refresh")!, meURL: URL(string: "https://api.example.com/me")!)

    @Test func verifySendsGoTruesEmailChangeBodyWithTheBearer() async throws {
        let engine = await Self.signedIn([.answer(status: 200, body: Data(#"{"msg":"Confirmation link accepted. Please proceed to confirm link sent to the other email","code":"200"}"#.utf8))])
        let result = try await EmailChangeFlow().verify(email: "grace@example.com", code: "123 456", on: engine)
        #expect(result.needsOtherConfirmation)
        #expect(await engine.calls.isEmpty)
        let request = try #require(await engine.requests.first)
        #expect(request.url?.path == "/auth/v1/verify")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer access-1")
        let body = try #require(request.httpBody.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: String] })
        #expect(body == ["type": "email_change", "email": "grace@example.com", "token": "123456"])
    }

    @Test func resendSendsGoTruesBody() async throws {
        let engine = await Self.signedIn([.answer(status: 200, body: Data("{}".utf8))])
        try await EmailChangeFlow().resend(email: "grace@example.com", type: .emailChange, on: engine)
        let request = try #require(await engine.requests.first)
        #expect(request.url?.path == "/auth/v1/resend")
        let body = try #require(request.httpBody.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: String] })
        #expect(body == ["type": "email_change", "email": "grace@example.com"])
    }

    @Test func aBackendThatIsNotGoTrueIsUnsupportedAndNothingIsSent() async {
        let engine = await Self.signedIn([.answer(status: 200)], backend: Self.custom)
        await #expect(throws: SessionError.unsupported) { try await EmailChangeFlow().verify(email: "a@b.c", code: "1", on: engine) }
        await #expect(throws: SessionError.unsupported) { try await EmailChangeFlow().resend(email: "a@b.c", type: .emailChange, on: engine) }
        #expect(await engine.requests.isEmpty)
        #expect(await engine.calls.isEmpty)
    }

    @Test(arguments: [200, 403, 502])
    func aProxysHTMLPageIsATypedErrorAndTheSessionIsUntouched(status: Int) async throws {
        let html = Data("<html><body>Access denied</body></html>".utf8)
        let engine = await Self.signedIn([.answer(status: status, body: html, headers: ["Content-Type": "text/html"])])
        let error = await #expect(throws: SessionError.self) {
            try await EmailChangeFlow().verify(email: "grace@example.com", code: "123456", on: engine)
        }
        #expect(error != nil)
        #expect(error != .sessionExpired)
        #expect(await engine.calls.isEmpty)
        #expect(await engine.currentSession?.refreshToken == "refresh-1")
    }
}
