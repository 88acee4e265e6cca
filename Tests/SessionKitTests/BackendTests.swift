import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

struct BackendTests {
    let url = URL(string: "https://project.supabase.co")!

    @Test func goTrueRequestsUseSupabasePathsAndTheAPIKey() throws {
        let backend = GoTrueBackend(url: url, apiKey: "anon")
        let refresh = try backend.request(for: .refresh(refreshToken: "r1"))
        #expect(refresh.url?.absoluteString == "https://project.supabase.co/auth/v1/token?grant_type=refresh_token")
        #expect(refresh.httpMethod == "POST")
        #expect(refresh.value(forHTTPHeaderField: "apikey") == "anon")
        #expect(String(decoding: refresh.httpBody ?? Data(), as: UTF8.self) == #"{"refresh_token":"r1"}"#)
        let logout = try backend.request(for: .signOut(.others))
        #expect(logout.url?.absoluteString == "https://project.supabase.co/auth/v1/logout?scope=others")
        // The key never goes to another host.
        var foreign = URLRequest(url: URL(string: "https://example.com/api")!)
        backend.prepare(&foreign)
        #expect(foreign.value(forHTTPHeaderField: "apikey") == nil)
    }

    @Test func customBackendPostsTheRefreshTokenToItsURL() throws {
        let refreshURL = URL(string: "https://app.example.com/.netlify/functions/auth-refresh-token")!
        let backend = CustomBackend(refreshURL: refreshURL, meURL: URL(string: "https://app.example.com/.netlify/functions/me")!)
        let request = try backend.request(for: .refresh(refreshToken: "r1"))
        #expect(request.url == refreshURL)
        #expect(String(decoding: request.httpBody ?? Data(), as: UTF8.self) == #"{"refresh_token":"r1"}"#)
        #expect(throws: SessionError.unsupported) { try backend.request(for: .listSessions) }
    }

    @Test func theCustomFactoryTakesEveryURLTheInitTakes() throws {
        let base = URL(string: "https://app.example.com/api")!
        let backend: CustomBackend = .custom(
            refreshURL: base.appendingPathComponent("refresh"), meURL: base.appendingPathComponent("me"),
            updateProfileURL: base.appendingPathComponent("profile"), deleteAccountURL: base.appendingPathComponent("account"),
            sessionsURL: base.appendingPathComponent("sessions"))
        // Before, the factory dropped these three: each operation answered `.unsupported`.
        #expect(try backend.request(for: .updateProfile(ProfileUpdate(firstName: "Ann"))).url == base.appendingPathComponent("profile"))
        #expect(try backend.request(for: .deleteAccount(AccountDeletion())).url == base.appendingPathComponent("account"))
        #expect(try backend.request(for: .listSessions).url == base.appendingPathComponent("sessions"))
    }

    @Test func customBackendRefreshesThroughTheClient() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        await fake.createUser(email: Fixture.email, password: Fixture.password)
        let response = try #require(await fake.issueSession(email: Fixture.email))
        let backend = CustomBackend(
            refreshURL: fake.baseURL.appendingPathComponent(".netlify/functions/auth-refresh-token"),
            meURL: fake.baseURL.appendingPathComponent("v1/auth/me"))
        var record = StoredSession(Session(response: response, serverNow: clock.now))
        record.expiresAt = clock.now.addingTimeInterval(-1)
        let configuration = SessionClientConfiguration(
            backend: backend, store: InMemorySessionStore(record), clock: clock, transport: fake,
            launchValidation: .skip, automaticRefresh: false, logger: LogCapture().logger())
        let client = SessionClient(configuration: configuration)
        let state = try await client.restore()
        #expect(await fake.count(.customRefresh) == 1)
        #expect(state.session?.refreshToken != response.refreshToken)
        #expect(try await client.me().email == Fixture.email)
    }

    @Test func decodesSessionsBareOrEnveloped() throws {
        let backend = GoTrueBackend(url: url)
        let bare = Data(#"{"id":"u1","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}"#.utf8)
        #expect(try backend.decodeUser(bare).id == "u1")
        let wrapped = Data(#"{"success":true,"data":{"id":"u2","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}}"#.utf8)
        #expect(try backend.decodeUser(wrapped).id == "u2")
        do {
            _ = try backend.decodeSession(Data(#"{"access_token":"x"}"#.utf8))
            Issue.record("expected a decoding error")
        } catch {
            #expect(error == .decoding)
            #expect(error.underlying?.contains("missing") == true)
        }
    }

    @Test func classifiesBothErrorShapes() {
        func classify(_ status: Int, _ body: String, _ context: ResponseClassifier.Context = .request) -> SessionError {
            ResponseClassifier.error(status: status, body: Data(body.utf8), headers: nil, context: context)
        }
        #expect(classify(401, #"{"success":false,"error":{"code":"SESSION_EXPIRED","message":"x"}}"#) == .sessionExpired)
        #expect(classify(401, #"{"success":false,"error":{"code":"AUTH_REQUIRED","message":"x"}}"#) == .authRequired)
        #expect(classify(403, #"{"success":false,"error":{"code":"FORBIDDEN","message":"x"}}"#) == .forbidden)
        #expect(classify(400, #"{"code":400,"error_code":"refresh_token_not_found","msg":"x"}"#) == .sessionExpired)
        #expect(classify(400, #"{"code":"session_expired","message":"x"}"#) == .sessionExpired)
        #expect(classify(400, #"{"error":"invalid_grant","error_description":"x"}"#, .signIn) == .invalidCredentials)
        #expect(classify(400, #"{"code":400,"error_code":"invalid_credentials","msg":"x"}"#) == .invalidCredentials)
        #expect(classify(502, "<html>") == .server)
        #expect(classify(429, "") == .rateLimited)
        #expect(classify(418, "") == .requestFailed)
        #expect(classify(401, #"{"success":false,"error":{"code":"SESSION_EXPIRED","message":"x"}}"#).message
            == "Your session has expired. Please sign in again.")
    }
}
