import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import Testing
@testable import SessionServer

/// A served path with a method it does not serve is 405 with `Allow`
/// (schemathesis' `unsupported_method` check found 404s); unknown paths and
/// a route's own 404s are unchanged.
struct MethodNotAllowedTests {
    @Test func answers405WithAllowForAKnownPath() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let health = try await client.executeRequest(uri: "/auth/v1/health", method: .trace, headers: [:], body: nil)
            #expect(health.status == .methodNotAllowed)
            #expect(health.headers[.allow] == "GET")
            #expect(health.goTrueErrorCode == "method_not_allowed")

            let activities = try await client.send(.delete, "/v1/activities")
            #expect(activities.status == .methodNotAllowed)
            #expect(activities.headers[.allow] == "GET, POST")
            #expect(activities.gatewayCode == "METHOD_NOT_ALLOWED")

            let one = try await client.send(.put, "/v1/activities/some-id")
            #expect(one.status == .methodNotAllowed)
            #expect(one.headers[.allow] == "DELETE, GET")
        }
    }

    @Test func keepsNotFoundForUnknownPathsAndMissingRows() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            #expect(try await client.send(.get, "/v1/nothing-here").status == .notFound)
            #expect(try await client.send(.get, "/v1/activities/a/b").status == .notFound)
            let session = try await client.signUp()
            let missing = try await client.send(.get, "/v1/activities/\(UUID().uuidString)", bearer: session.accessToken)
            #expect(missing.status == .notFound)
            #expect(missing.gatewayCode == "NOT_FOUND")
        }
    }
}
