import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer

/// An auth server on a manual clock, fast bcrypt and a fresh database.
struct TestServer {
    let server: AuthServer
    let clock: ManualClock

    static func make(
        _ database: TestDatabase = .sqlite, location: DatabaseLocation? = nil, clock: ManualClock = ManualClock(),
        logger: Logger? = nil, configure: (inout AuthServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        var configuration = AuthServerConfiguration.testing(clock: clock, database: location ?? database.freshLocation())
        configure(&configuration)
        var quiet = Logger(label: "auth-server-test")
        quiet.logLevel = .warning
        return TestServer(server: try await AuthServer(configuration: configuration, logger: logger ?? quiet), clock: clock)
    }

    /// Runs `body` against the router (no socket).
    func run<T: Sendable>(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        try await server.makeApplication().test(.router) { client in try await body(client) }
    }

    /// Runs `body` against a live loopback server.
    func runLive<T: Sendable>(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        try await server.makeApplication().test(.live) { client in try await body(client) }
    }
}

extension TestClientProtocol {
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, bearer: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        headers[.contentType] = "application/json"
        headers[HTTPField.Name("apikey")!] = "anon-key-is-ignored"
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        return try await executeRequest(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    func signUp(_ email: String = "ada@example.com", password: String = "correct-horse") async throws -> TokenResponse {
        let response = try await send(.post, "/auth/v1/signup", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
        return try response.decode(TokenResponse.self)
    }

    func signIn(_ email: String, password: String) async throws -> TestResponse {
        try await send(
            .post, "/auth/v1/token?grant_type=password", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    func refresh(_ token: String) async throws -> TestResponse {
        try await send(.post, "/auth/v1/token?grant_type=refresh_token", json: #"{"refresh_token":"\#(token)"}"#)
    }
}

struct UnexpectedResponse: Error, CustomStringConvertible {
    let description: String
}

extension TestResponse {
    var text: String { String(buffer: body) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard status.code < 300 else { throw UnexpectedResponse(description: "\(status.code): \(text)") }
        return try WireCoding.decoder().decode(T.self, from: Data(body.readableBytesView))
    }

    /// `error_code` of a GoTrue error body.
    var goTrueErrorCode: String? { ServerErrorBody.parse(Data(body.readableBytesView))?.goTrueErrorCode?.rawValue }
    /// `error.code` of a gateway envelope.
    var gatewayCode: String? { ServerErrorBody.parse(Data(body.readableBytesView))?.code?.rawValue }
    /// The parsed JSON object.
    func jsonObject() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] else {
            throw UnexpectedResponse(description: "not a JSON object: \(text)")
        }
        return object
    }
}

extension TestServer {
    /// A SessionClient of the SDK against this server running live on `port`,
    /// on the server's clock (dates through `ServerDateMiddleware`).
    func sdkClient(port: Int) -> SessionClient {
        SessionClient(
            configuration: SessionClientConfiguration(
                backend: .goTrue(url: URL(string: "http://127.0.0.1:\(port)")!), store: InMemorySessionStore(), clock: clock,
                transport: MiddlewareTransport(base: URLSessionTransport(), middlewares: [ServerDateMiddleware(serverClock: clock)]),
                jitter: .fixed(0), automaticRefresh: false))
    }
}
