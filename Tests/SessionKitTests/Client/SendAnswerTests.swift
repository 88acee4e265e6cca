import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// What `send` gives back and what it throws (docs: HandlingStatesAndErrors.md,
/// "What send returns"): every answer that is the API's own reaches the app;
/// only the session's own decisions are thrown.
@Suite(.timeLimit(.minutes(1)))
struct SendAnswerTests {
    static let api = URL(string: "https://api.example.com")!

    /// The fake auth server, plus an API at another origin answering as `answer` says.
    struct WithAPI: HTTPTransport {
        let fake: FakeAuthBackend
        let answer: @Sendable (URLRequest) throws -> (Data, HTTPURLResponse)
        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            if request.url?.host == SendAnswerTests.api.host { return try answer(request) }
            return try await fake.send(request)
        }
    }

    static func fixture(
        authorizedOrigins: [URL] = [api],
        answer: @escaping @Sendable (URLRequest) throws -> (Data, HTTPURLResponse) = { request in
            (Data(), HTTPURLResponse(url: request.url!, statusCode: 204, httpVersion: "HTTP/1.1", headerFields: nil)!)
        }
    ) async -> Fixture {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        return await Fixture.make(
            clock: clock, fake: fake, transport: WithAPI(fake: fake, answer: answer), authorizedOrigins: authorizedOrigins)
    }

    static func answer(_ status: Int, _ body: String, headers: [String: String] = ["Content-Type": "application/json"])
        -> @Sendable (URLRequest) throws -> (Data, HTTPURLResponse)
    {
        { request in
            (Data(body.utf8), HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!)
        }
    }

    @Test func aValidationErrorReachesTheAppWithStatusHeadersAndBody() async throws {
        let body = #"{"errors":[{"field":"distance","problem":"must be positive"}]}"#
        let f = await Self.fixture(answer: Self.answer(422, body, headers: ["Content-Type": "application/json", "X-Request-Id": "r-1"]))
        let session = try await f.signIn()
        let (data, response) = try await f.client.send(URLRequest(url: Self.api.appendingPathComponent("runs")))
        #expect(response.statusCode == 422)
        #expect(response.value(forHTTPHeaderField: "X-Request-Id") == "r-1")
        #expect(String(decoding: data, as: UTF8.self) == body)
        #expect(f.client.currentState == .signedIn(session))
        #expect(await f.fake.count(.refresh) == 0)
    }

    @Test func anAPIsServerErrorAndForbiddenAreAnswersNotErrors() async throws {
        let f = await Self.fixture(answer: Self.answer(503, "busy", headers: ["Retry-After": "5"]))
        try await f.signIn()
        let (_, busy) = try await f.client.send(URLRequest(url: Self.api.appendingPathComponent("runs")))
        #expect(busy.statusCode == 503)
        #expect(busy.value(forHTTPHeaderField: "Retry-After") == "5")
        #expect(f.client.currentState.isSignedIn)
    }

    /// An app that wants a typed error for an answer reads it as the client reads its own calls'.
    @Test func anAnswerNamesItsTypedErrorOnRequest() throws {
        func answer(_ status: Int, _ body: String) -> (Data, HTTPURLResponse) {
            (Data(body.utf8), HTTPURLResponse(url: Self.api, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!)
        }
        let ok = answer(200, "{}")
        #expect(SessionError(answer: ok.0, response: ok.1) == nil)
        let forbidden = answer(403, #"{"success": false, "error": {"code": "FORBIDDEN", "message": "No."}}"#)
        #expect(SessionError(answer: forbidden.0, response: forbidden.1) == .forbidden)
        let invalid = answer(400, #"{"success": false, "error": {"code": "INVALID_REQUEST", "message": "name is required"}}"#)
        let error = try #require(SessionError(answer: invalid.0, response: invalid.1))
        #expect(error == .invalidRequest)
        #expect(error.message == "name is required")
        let bare401 = answer(401, "")
        #expect(SessionError(answer: bare401.0, response: bare401.1) == .requestRejected)
        let server = answer(500, "oops")
        #expect(SessionError(answer: server.0, response: server.1) == .server)
        let expiredCode = answer(400, #"{"code":400,"error_code":"session_expired","msg":"Session expired"}"#)
        #expect(SessionError(answer: expiredCode.0, response: expiredCode.1) == .requestRejected)
    }

    // MARK: - authorizedOrigins adds to the backend's origins

    @Test func theBackendsOriginIsAlwaysAllowedBesideTheAppsList() async throws {
        let f = await Self.fixture(authorizedOrigins: [Self.api])
        try await f.signIn()
        // The Supabase project itself (PostgREST, Functions, Storage) with the guide's configuration.
        let (_, own) = try await f.client.send(URLRequest(url: f.fake.baseURL.appendingPathComponent("v1/activities")))
        #expect(own.statusCode == 200)
        let (_, api) = try await f.client.send(URLRequest(url: Self.api.appendingPathComponent("runs")))
        #expect(api.statusCode == 204)
    }

    @Test func anOriginInNeitherListIsRefusedBeforeAnythingIsSent() async throws {
        let f = await Self.fixture(authorizedOrigins: [Self.api]) { _ in
            Issue.record("nothing may be sent to another origin")
            throw URLError(.badURL)
        }
        try await f.signIn()
        await #expect(throws: SessionError.originNotAllowed) {
            try await f.client.send(URLRequest(url: URL(string: "https://api.example.com.evil.test/runs")!))
        }
        await #expect(throws: SessionError.originNotAllowed) {
            try await f.client.send(URLRequest(url: URL(string: "http://api.example.com/runs")!))
        }
    }

    // MARK: - The 401 contract's envelope (docs: HandlingStatesAndErrors.md)

    static let sessionExpiredEnvelope =
        #"{"success": false, "error": {"code": "SESSION_EXPIRED", "message": "Your session has expired. Please sign in again."}}"#

    @Test func theExactSessionExpiredEnvelopeTwiceEndsTheSession() async throws {
        let f = await Self.fixture(answer: Self.answer(401, Self.sessionExpiredEnvelope))
        try await f.signIn()
        await #expect(throws: SessionError.sessionExpired) {
            try await f.client.send(URLRequest(url: Self.api.appendingPathComponent("runs")))
        }
        #expect(f.client.currentState == .expired(reason: "Your session has expired. Please sign in again."))
        #expect(await f.fake.count(.refresh) == 1)
    }

    @Test func theAuthRequiredEnvelopeTwiceSignsOutWithoutAMessage() async throws {
        let f = await Self.fixture(
            answer: Self.answer(401, #"{"success": false, "error": {"code": "AUTH_REQUIRED", "message": "Sign in."}}"#))
        try await f.signIn()
        await #expect(throws: SessionError.authRequired) {
            try await f.client.send(URLRequest(url: Self.api.appendingPathComponent("runs")))
        }
        #expect(f.client.currentState == .signedOut)
    }

    @Test(arguments: [
        #"{"message": "jwt expired"}"#,
        #"{"error": "SESSION_EXPIRED"}"#,
        #"{"success": false, "error": {"message": "no code"}}"#,
        "<html><body>401 Unauthorized</body></html>",
        "",
    ])
    func a401OfAnotherShapeIsRetriedOnceThenReturnedAndTheSessionKept(body: String) async throws {
        let f = await Self.fixture(answer: Self.answer(401, body))
        let session = try await f.signIn()
        let (data, response) = try await f.client.send(URLRequest(url: Self.api.appendingPathComponent("runs")))
        #expect(response.statusCode == 401)
        #expect(String(decoding: data, as: UTF8.self) == body)
        #expect(await f.fake.count(.refresh) == 1)
        #expect(f.client.currentState.isSignedIn)
        #expect(f.client.currentState.session?.user == session.user)
    }

    @Test func a401ThenASuccessIsTheSuccessAfterOneRefresh() async throws {
        let calls = CallCounter()
        let f = await Self.fixture { request in
            let first = calls.next() == 1
            return (Data(first ? Self.sessionExpiredEnvelope.utf8 : "[]".utf8),
                HTTPURLResponse(url: request.url!, statusCode: first ? 401 : 200, httpVersion: "HTTP/1.1", headerFields: nil)!)
        }
        try await f.signIn()
        let (data, response) = try await f.client.send(URLRequest(url: Self.api.appendingPathComponent("runs")))
        #expect(response.statusCode == 200)
        #expect(data == Data("[]".utf8))
        #expect(await f.fake.count(.refresh) == 1)
    }
}

/// A thread-safe call counter for a transport closure.
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
