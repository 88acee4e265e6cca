import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting

/// An app's own API at another origin than the auth server, answering as a
/// test says, and remembering the tokens it was sent.
final class AppAPI: @unchecked Sendable {
    static let origin = URL(string: "https://api.example.app")!
    static func url(_ path: String) -> URL { origin.appendingPathComponent(path) }

    /// `earlier`: the tokens of the requests before this one.
    typealias Answer = @Sendable (URLRequest, _ token: String?, _ earlier: [String?]) throws -> (Data, HTTPURLResponse)
    // `@unchecked`: `tokens` is only touched under `lock`.
    private let lock = NSLock()
    private var tokens: [String?] = []
    let answer: Answer

    init(answer: @escaping Answer = { request, _, _ in AppAPI.respond(request, 200, "{}") }) { self.answer = answer }

    /// The bearer tokens of every request, in order (nil: none sent).
    var tokensSeen: [String?] { lock.withLock { tokens } }

    func handle(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        let token = request.value(forHTTPHeaderField: "Authorization").map { String($0.dropFirst("Bearer ".count)) }
        let earlier = lock.withLock {
            defer { tokens.append(token) }
            return tokens
        }
        return try answer(request, token, earlier)
    }

    static func respond(_ request: URLRequest, _ status: Int, _ body: String, headers: [String: String] = [:]) -> (Data, HTTPURLResponse) {
        let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
        return (Data(body.utf8), response)
    }

    /// The gateway's `SESSION_EXPIRED` 401, as an app's API behind `AuthMiddleware` answers it.
    static let sessionExpired = #"{"success": false, "error": {"code": "SESSION_EXPIRED", "message": "Your session has expired."}}"#
}

/// The auth server's transport, with the app's API beside it at its own origin.
struct RoutedTransport: HTTPTransport {
    let api: AppAPI
    let auth: any HTTPTransport
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        if Origin(request.url) == Origin(AppAPI.origin) { return try api.handle(request) }
        return try await auth.send(request)
    }
}

/// A client of the fake auth server whose clock reports where it was read
/// (``AccessTokenExecutorTests/ProbeClock``): a request beside the actor
/// reads it once, on the caller's executor; the actor path reads it there
/// and again on the actor (`validSession`, and around the transport call).
struct BesideTheActorRig {
    let clock: ManualClock
    let probe: AccessTokenExecutorTests.ProbeClock
    let fake: FakeAuthBackend
    let api: AppAPI
    let client: SessionClient

    static let email = "ada@example.com"
    static let password = "correct-horse"

    static func make(
        api: AppAPI = AppAPI(), store: any SessionStore = InMemorySessionStore(), clock: ManualClock = ManualClock(),
        auth: (FakeAuthBackend) -> any HTTPTransport = { $0 }
    ) async -> BesideTheActorRig {
        let fake = FakeAuthBackend(clock: clock)
        await fake.createUser(email: email, password: password)
        let probe = AccessTokenExecutorTests.ProbeClock(base: clock)
        var configuration = fake.clientConfiguration(
            clock: probe, store: AnyStore(store), launchValidation: .skip, automaticRefresh: false)
        configuration.transport = RoutedTransport(api: api, auth: auth(fake))
        configuration.authorizedOrigins = [AppAPI.origin]
        return BesideTheActorRig(
            clock: clock, probe: probe, fake: fake, api: api, client: SessionClient(configuration: configuration))
    }

    @discardableResult
    func signIn() async throws -> Session {
        try await client.signIn(email: Self.email, password: Self.password)
    }

    func expireAccessToken() {
        clock.set(to: clock.now.addingTimeInterval(SessionDefaults.accessTokenLifetime + 1))
    }
}
