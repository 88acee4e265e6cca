import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import SessionServer
import Testing

/// Two servers on one PostgreSQL database behave as one.
///
/// Skipped, with the reason shown in the test report, when
/// `SESSIONKIT_TEST_POSTGRES_URL` is not set.
@Suite(.enabled(if: TestDatabase.postgresURL != nil, "SESSIONKIT_TEST_POSTGRES_URL is not set: no PostgreSQL to test against"))
struct PostgresReplicaTests {
    /// Runs `body` with two replicas on one fresh schema and one clock.
    func withReplicas(_ body: @escaping @Sendable (TestServer, any TestClientProtocol, any TestClientProtocol) async throws -> Void) async throws {
        let location = TestDatabase.postgresLocation(schema: TestDatabase.freshSchemaName())
        let clock = ManualClock()
        let a = try await TestServer.make(location: location, clock: clock)
        let b = try await TestServer.make(location: location, clock: clock)
        try await a.run { clientA in
            try await b.run { clientB in try await body(a, clientA, clientB) }
        }
    }

    @Test func sharesKeysAndSessionsAcrossReplicas() async throws {
        try await withReplicas { a, clientA, clientB in
            let session = try await clientA.signUp()
            #expect(try await clientB.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .ok)
            let jwksA = try await clientA.send(.get, "/auth/v1/.well-known/jwks.json").decode(JWKS.self)
            let jwksB = try await clientB.send(.get, "/auth/v1/.well-known/jwks.json").decode(JWKS.self)
            #expect(jwksA == jwksB)
            // A key rotated on one replica is picked up by the other on the first unknown kid.
            _ = try await a.server.keyRing.rotate()
            await a.clock.advance(by: 2)
            let fresh = try await clientA.refresh(session.refreshToken).decode(TokenResponse.self)
            #expect(try await clientB.send(.get, "/v1/auth/me", bearer: fresh.accessToken).status == .ok)
        }
    }

    @Test func detectsReuseAcrossReplicas() async throws {
        try await withReplicas { a, clientA, clientB in
            let session = try await clientA.signUp()
            let second = try await clientB.refresh(session.refreshToken).decode(TokenResponse.self)
            let third = try await clientA.refresh(second.refreshToken).decode(TokenResponse.self)
            await a.clock.advance(by: 11)
            let reuse = try await clientB.refresh(session.refreshToken)
            #expect(reuse.goTrueErrorCode == "refresh_token_already_used")
            #expect(try await clientA.refresh(third.refreshToken).goTrueErrorCode == "refresh_token_already_used")
            #expect(try await clientA.send(.get, "/v1/auth/me", bearer: third.accessToken).gatewayCode == "SESSION_EXPIRED")
        }
    }

    @Test func concurrentRefreshesOnTwoReplicasGetTheSameSuccessor() async throws {
        try await withReplicas { _, clientA, clientB in
            let session = try await clientA.signUp()
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for client in [clientA, clientB, clientA, clientB] {
                    group.addTask { try await client.refresh(session.refreshToken).decode(TokenResponse.self).refreshToken }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(tokens.count == 4)
            #expect(Set(tokens).count == 1)
        }
    }
}
