import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SessionCore
import Testing
@testable import SessionServer

/// Unexpected failures become a generic 500 that leaks nothing, in both shapes.
struct ErrorMappingTests {
    struct LeakyError: Error, CustomStringConvertible {
        var description: String { "SQLiteError: near \"SELECT password_hash FROM users\": syntax error" }
    }

    func app() -> some ApplicationProtocol {
        let router = Router(context: AuthRequestContext.self)
        let metrics = ServerMetrics()
        router.group("v1").add(middleware: GatewayErrorMiddleware(metrics: metrics))
            .get("boom") { _, _ -> String in throw LeakyError() }
            .get("db-down") { _, _ -> String in throw AuthError.databaseUnavailable }
        router.group("auth/v1").add(middleware: GoTrueErrorMiddleware(metrics: metrics))
            .get("boom") { _, _ -> String in throw LeakyError() }
            .get("db-down") { _, _ -> String in throw AuthError.databaseUnavailable }
        var quiet = Logger(label: "quiet")
        quiet.logLevel = .critical
        return Application(router: router, logger: quiet)
    }

    @Test func answersAnUnavailableDatabaseAsATransient503WithRetryAfter() async throws {
        try await app().test(.router) { client in
            let gateway = try await client.execute(uri: "/v1/db-down", method: .get)
            #expect(gateway.status == .serviceUnavailable)
            #expect(gateway.headers[.retryAfter] == "1")
            #expect(ServerErrorBody.parse(Data(gateway.body.readableBytesView))?.code == .internal)
            let goTrue = try await client.execute(uri: "/auth/v1/db-down", method: .get)
            #expect(goTrue.status == .serviceUnavailable)
            #expect(goTrue.headers[.retryAfter] == "1")
            #expect(ServerErrorBody.parse(Data(goTrue.body.readableBytesView))?.goTrueErrorCode?.rawValue == "service_unavailable")
        }
    }

    @Test func answersAGenericInternalErrorWithoutDetails() async throws {
        try await app().test(.router) { client in
            let gateway = try await client.execute(uri: "/v1/boom", method: .get)
            #expect(gateway.status == .internalServerError)
            #expect(ServerErrorBody.parse(Data(gateway.body.readableBytesView))?.code == .internal)
            let goTrue = try await client.execute(uri: "/auth/v1/boom", method: .get)
            #expect(goTrue.status == .internalServerError)
            #expect(ServerErrorBody.parse(Data(goTrue.body.readableBytesView))?.goTrueErrorCode == .unexpectedFailure)
            for body in [String(buffer: gateway.body), String(buffer: goTrue.body)] {
                #expect(!body.contains("SELECT"))
                #expect(!body.contains("SQLite"))
            }
        }
    }
}
