import Foundation
import SQLKit
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 44, item 4: a rotation's cost on PostgreSQL is its round trips, so
/// its statement count is checked here, from the store's query log; and the
/// one statement that reads a user's identities and factors together answers
/// exactly what the two it replaced did (docs/BENCHMARKS.md, "Item 4: the
/// request path's misses").
struct RotationStatementsTests {
    /// BEGIN, the token ⋈ session, the user `FOR KEY SHARE`, the session `FOR UPDATE`,
    /// the token again under that lock (PostgreSQL only: SQLite's one writer holds the
    /// whole transaction), identities ∪ factors, the successor's INSERT, two UPDATEs, COMMIT.
    static func expectedCount(_ database: TestDatabase) -> Int { database == .postgres ? 10 : 9 }

    @Test(arguments: TestDatabase.all)
    func aRotationRunsTheCountedStatements(database: TestDatabase) async throws {
        let sql = CapturedSQL()
        let test = try await TestServer.make(database, logger: sql.logger())
        try await test.run { _ in
            let store = test.server.store
            let now = test.clock.now
            let user = try await store.createUser(email: "ada@example.com", passwordHash: "unused", metadata: [:], now: now)
            try await Self.addIdentitiesAndFactors(userID: user.id, store: store, now: now)
            let (_, token) = try await store.createSession(
                userID: user.id, userAgent: "test", ip: "127.0.0.1", now: now, refreshTokenTTL: 3600, absoluteTTL: 86_400)
            _ = sql.take()
            let grant = try await store.rotate(
                refreshToken: token, now: now.addingTimeInterval(1), policy: RotationPolicy(refreshTokenTTL: 3600, grace: 10))
            let statements = sql.take()
            #expect(
                statements.count == Self.expectedCount(database),
                "\(statements.count) statements:\n\(statements.joined(separator: "\n"))")
            // The answer is the user as the two-statement read shows it, identities and factors in order.
            let expected = try #require(try await store.user(id: user.id))
            #expect(grant.user == expected)
            #expect(grant.user.identities.count == 2 && grant.user.factors.count == 3)
        }
    }

    @Test(arguments: TestDatabase.all)
    func oneStatementReadsWhatTheTwoRead(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { _ in
            let store = test.server.store
            let now = test.clock.now
            let user = try await store.createUser(email: "ada@example.com", passwordHash: "unused", metadata: [:], now: now)
            let other = try await store.createUser(email: "bob@example.com", passwordHash: "unused", metadata: [:], now: now)
            try await Self.addIdentitiesAndFactors(userID: user.id, store: store, now: now)
            try await Self.addIdentitiesAndFactors(userID: other.id, store: store, now: now)
            let (identities, factors, combined) = try await store.withTransaction { db in
                (
                    try await AuthStore.fetchIdentities(userID: user.id, on: db),
                    try await AuthStore.fetchFactors(userID: user.id, on: db),
                    try await AuthStore.fetchIdentitiesAndFactors(userID: user.id, on: db)
                )
            }
            #expect(combined.identities == identities)
            #expect(combined.factors == factors)
            #expect(identities.map(\.providerID) == ["first", "second"])
            #expect(factors.map(\.friendlyName) == ["first", nil, "third"])
            let none = try await store.withTransaction { db in
                try await AuthStore.fetchIdentitiesAndFactors(userID: "nobody", on: db)
            }
            #expect(none.identities.isEmpty && none.factors.isEmpty)
        }
    }

    /// Two identities and three factors, inserted out of their `created_at` order, with
    /// every nullable column both empty and set.
    static func addIdentitiesAndFactors(userID: String, store: AuthStore, now: Date) async throws {
        let t = now.timeIntervalSince1970
        try await store.withTransaction { db in
            let identities: [(Double, String, String?, Double?)] = [(2.0, "second", nil, nil), (1.0, "first", "a@example.com", t)]
            for (offset, provider, email, signedIn) in identities {
                try await db.raw(
                    """
                    INSERT INTO identities (id, user_id, provider, provider_id, identity_data, email, created_at, updated_at,
                    last_sign_in_at) VALUES (\(bind: UUID().uuidString), \(bind: userID), \(bind: "github-\(userID)"),
                    \(bind: provider), \(bind: #"{"sub":"\#(provider)"}"#), \(bind: email), \(bind: t + offset),
                    \(bind: t + offset + 0.5), \(bind: signedIn))
                    """
                ).run()
            }
            let factors: [(Double, String?, Double?, Int64?)] = [
                (3.0, "third", t, 1_234_567), (1.0, "first", nil, nil), (2.0, nil, t + 1, 42),
            ]
            for (offset, name, challenged, step) in factors {
                try await db.raw(
                    """
                    INSERT INTO mfa_factors (id, user_id, friendly_name, factor_type, status, secret, created_at, updated_at,
                    last_challenged_at, last_step) VALUES (\(bind: UUID().uuidString), \(bind: userID), \(bind: name),
                    'totp', \(bind: step == nil ? "unverified" : "verified"), 'sealed', \(bind: t + offset), \(bind: t + offset),
                    \(bind: challenged), \(bind: step))
                    """
                ).run()
            }
        }
    }
}
