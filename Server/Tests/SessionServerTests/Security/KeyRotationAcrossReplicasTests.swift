import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 15 §1: a rotation or retirement made by another process reaches
/// every replica within the key refresh interval, and a replica with a stale
/// list never retires the database's real signing key.
struct KeyRotationAcrossReplicasTests {
    /// Two replicas on one database and one clock, plus a key ring standing
    /// for `auth-server keys …` run as its own process.
    func withReplicas(
        _ database: TestDatabase,
        _ body: @escaping @Sendable (TestServer, TestServer, KeyRing, any TestClientProtocol, any TestClientProtocol) async throws -> Void
    ) async throws {
        let location: DatabaseLocation
        switch database {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path
            location = .sqlite(path: folder + "/auth.sqlite")
        case .postgres:
            location = TestDatabase.postgresLocation(schema: TestDatabase.freshSchemaName())
        }
        let clock = ManualClock()
        let a = try await TestServer.make(location: location, clock: clock)
        let b = try await TestServer.make(location: location, clock: clock)
        let command = KeyRing(
            store: a.server.store, clock: clock, kek: a.server.configuration.keyEncryptionKey ?? .embeddedDefault)
        try await a.run { clientA in
            try await b.run { clientB in try await body(a, b, command, clientA, clientB) }
        }
    }

    static func kid(_ token: String) throws -> String? { try UnverifiedJWT(token).header.kid }

    static func jwksKids(_ client: any TestClientProtocol) async throws -> Set<String> {
        Set(try await client.send(.get, "/auth/v1/.well-known/jwks.json").decode(JWKS.self).keys.compactMap(\.kid))
    }

    @Test(arguments: TestDatabase.all)
    func aRotationElsewhereReachesEveryReplicaWithinTheInterval(database: TestDatabase) async throws {
        try await withReplicas(database) { a, _, command, clientA, clientB in
            let before = try await clientA.signUp()
            let first = try #require(try Self.kid(before.accessToken))
            #expect(try await Self.jwksKids(clientB) == [first])

            let second = try await command.rotate()
            // Until its list ages, a replica still signs with the key it knows (the documented bound).
            await a.clock.advance(by: a.server.configuration.keyRefreshInterval - 1)
            let early = try await clientB.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            #expect(try Self.kid(early.accessToken) == first)

            await a.clock.advance(by: 1)
            for client in [clientA, clientB] {
                let late = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
                #expect(try Self.kid(late.accessToken) == second)
                #expect(try await Self.jwksKids(client) == [first, second])
                // The previous key keeps verifying what it signed.
                #expect(try await client.send(.get, "/v1/auth/me", bearer: before.accessToken).status == .ok)
            }
        }
    }

    @Test(arguments: TestDatabase.all)
    func aStaleReplicaNeverRetiresTheRealSigningKey(database: TestDatabase) async throws {
        try await withReplicas(database) { a, b, _, clientA, clientB in
            let first = try #require(try Self.kid(try await clientA.signUp().accessToken))
            #expect(try await Self.jwksKids(clientB) == [first])
            let second = try await b.server.keyRing.rotate()
            // A still believes `first` signs; its rotation must keep `second`, the database's signing key.
            let third = try await a.server.keyRing.rotate()
            let states = try await a.server.store.signingKeyList().map { [$0.kid: $0.state] }
            #expect(states == [[third: .signing], [second: .verifying], [first: .retired]])
        }
    }

    @Test(arguments: TestDatabase.all)
    func aRetiredKeyStopsVerifyingOnEveryReplicaWithinTheInterval(database: TestDatabase) async throws {
        try await withReplicas(database) { a, _, command, clientA, clientB in
            let session = try await clientA.signUp()
            let first = try #require(try Self.kid(session.accessToken))
            for client in [clientA, clientB] {
                // Verified and remembered by each replica's token cache.
                #expect(try await client.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .ok)
            }
            let second = try await command.rotate()
            #expect(try await command.retire(kid: first))

            await a.clock.advance(by: a.server.configuration.keyRefreshInterval)
            for client in [clientA, clientB] {
                #expect(try await client.send(.get, "/v1/auth/me", bearer: session.accessToken).status == .unauthorized)
                #expect(try await Self.jwksKids(client) == [second])
            }
            // Refresh tokens do not depend on signing keys: the session carries on under the new key.
            let refreshed = try await clientB.refresh(session.refreshToken).decode(TokenResponse.self)
            #expect(try Self.kid(refreshed.accessToken) == second)
            #expect(try await clientA.send(.get, "/v1/auth/me", bearer: refreshed.accessToken).status == .ok)
        }
    }

    @Test(arguments: TestDatabase.all)
    func onlyAVerifyingKeyCanBeRetired(database: TestDatabase) async throws {
        try await withReplicas(database) { a, _, command, clientA, _ in
            let first = try #require(try Self.kid(try await clientA.signUp().accessToken))
            await #expect(throws: KeyManagementError.signingKey(first)) { try await command.retire(kid: first) }
            await #expect(throws: KeyManagementError.unknownKey("no-such-key")) { try await command.retire(kid: "no-such-key") }
            let second = try await command.rotate()
            await #expect(throws: KeyManagementError.signingKey(second)) { try await command.retire(kid: second) }
            #expect(try await command.retire(kid: first))
            #expect(try await !command.retire(kid: first))
            let states = try await a.server.store.signingKeyList().map(\.state)
            #expect(states == [.signing, .retired])
        }
    }
}
