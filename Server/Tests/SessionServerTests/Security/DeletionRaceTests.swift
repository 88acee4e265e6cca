import Foundation
import HTTPTypes
import SessionKitTesting
import SQLKit
import SessionCore
import Testing
@testable import SessionServer

/// Issue 15 §11: deleting an account and signing in (or refreshing) cannot
/// race into a session that outlives its user, nor deadlock on PostgreSQL.
struct DeletionRaceTests {
    static let policy = RotationPolicy(refreshTokenTTL: 3600, grace: 10)

    static func sessionRows(userID: String, in store: AuthStore) async throws -> Int {
        try await store.withTransaction { db in
            try await db.raw("SELECT id FROM sessions WHERE user_id = \(bind: userID)").all().count
        }
    }

    /// The interleaving a slow bcrypt opens: the sign-in read the user, the
    /// deletion committed, then the sign-in wrote its session.
    @Test(arguments: TestDatabase.all)
    func aSignInThatFinishesAfterTheDeletionGetsNoSession(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { _ in
            let store = test.server.store
            let now = test.clock.now
            let user = try await store.createUser(email: "ada@example.com", passwordHash: "x", metadata: [:], now: now)
            try await store.deleteUser(id: user.id)
            await #expect(throws: AuthError.invalidCredentials) {
                try await store.createSession(
                    userID: user.id, userAgent: nil, ip: nil, now: now, refreshTokenTTL: 3600, absoluteTTL: 7200)
            }
            #expect(try await Self.sessionRows(userID: user.id, in: store) == 0)
        }
    }

    @Test(arguments: TestDatabase.all)
    func validationRefusesASessionWhoseUserIsGone(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { _ in
            let store = test.server.store
            let now = test.clock.now
            let user = try await store.createUser(email: "ada@example.com", passwordHash: "x", metadata: [:], now: now)
            let (session, token) = try await store.createSession(
                userID: user.id, userAgent: nil, ip: nil, now: now, refreshTokenTTL: 3600, absoluteTTL: 7200)
            #expect(try await store.isSessionActive(sessionID: session.id, userID: user.id, now: now))
            // A session row left behind without its user (an older server's race, a hand-edited database).
            try await store.withTransaction { db in try await db.raw("DELETE FROM users WHERE id = \(bind: user.id)").run() }
            store.sessionChecks.forgetAll()
            #expect(try await !store.isSessionActive(sessionID: session.id, userID: user.id, now: now))
            await #expect(throws: AuthError.sessionNotFound) {
                try await store.rotate(refreshToken: token, now: now, policy: Self.policy)
            }
        }
    }

    /// Deletions, refreshes and sign-ins of one user at once, many times over:
    /// no deadlock (PostgreSQL would abort one side), no session left behind.
    @Test(.enabled(if: TestDatabase.postgresURL != nil, "SESSIONKIT_TEST_POSTGRES_URL is not set"))
    func deletionRacingRefreshesAndSignInsOnPostgres() async throws {
        let test = try await TestServer.make(.postgres)
        try await test.run { _ in
            let store = test.server.store
            let now = test.clock.now
            for round in 0..<25 {
                let user = try await store.createUser(
                    email: "racer\(round)@example.com", passwordHash: "x", metadata: [:], now: now)
                var tokens: [String] = []
                for _ in 0..<4 {
                    tokens.append(
                        try await store.createSession(
                            userID: user.id, userAgent: nil, ip: nil, now: now, refreshTokenTTL: 3600, absoluteTTL: 7200
                        ).refreshToken)
                }
                let unexpected = try await withThrowingTaskGroup(of: String?.self) { group in
                    group.addTask {
                        try await store.deleteUser(id: user.id)
                        return nil
                    }
                    for token in tokens {
                        group.addTask {
                            do {
                                _ = try await store.rotate(refreshToken: token, now: now, policy: Self.policy)
                            } catch is AuthError {}  // Refused because the user is gone: the right answer.
                            catch { return String(reflecting: error) }
                            return nil
                        }
                    }
                    for _ in 0..<3 {
                        group.addTask {
                            do {
                                _ = try await store.createSession(
                                    userID: user.id, userAgent: nil, ip: nil, now: now, refreshTokenTTL: 3600,
                                    absoluteTTL: 7200)
                            } catch is AuthError {}
                            catch { return String(reflecting: error) }
                            return nil
                        }
                    }
                    return try await group.reduce(into: [String]()) { if let error = $1 { $0.append(error) } }
                }
                #expect(unexpected.isEmpty, "round \(round): \(unexpected)")
                #expect(try await Self.sessionRows(userID: user.id, in: store) == 0, "round \(round)")
                let orphanTokens = try await store.withTransaction { db in
                    try await db.raw(
                        "SELECT token_hash FROM refresh_tokens WHERE session_id NOT IN (SELECT id FROM sessions)"
                    ).all().count
                }
                #expect(orphanTokens == 0, "round \(round)")
            }
        }
    }
}
