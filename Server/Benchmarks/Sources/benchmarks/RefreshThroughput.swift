import Crypto
import Foundation
import SQLKit
import SessionCore
import SessionServer

/// Item 4: refresh-token rotations per second at 64 concurrent clients,
/// through `AuthStore.rotate` (what `/token?grant_type=refresh_token` runs),
/// beside a hand-written SQLKit transaction with the same reads and writes,
/// interleaved over repetitions. SQLite (a file in /tmp), then PostgreSQL
/// with `fsync` on (what production runs) and off (as the tests' server runs).
enum RefreshThroughput {
    static let clients = 64

    static func run(report: Report, quick: Bool, postgresURL: String?) async throws {
        let seconds: Double = quick ? 1 : 3
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-refresh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { _ = try? FileManager.default.removeItem(at: directory) }
        try await measure(
            name: "SQLite", location: .sqlite(path: directory.appendingPathComponent("auth.sqlite").path), seconds: seconds,
            report: report)
        guard let postgresURL else {
            await report.add("4", "PostgreSQL", "not run: neither SESSIONKIT_BENCH_POSTGRES_URL nor SESSIONKIT_TEST_POSTGRES_URL is set")
            return
        }
        let fsync = PostgresFsync(url: postgresURL)
        do {
            for on in [true, false] {
                let name = "PostgreSQL fsync=\(on ? "on" : "off")"
                let shown = try await fsync.set(on)
                guard shown == (on ? "on" : "off") else {
                    await report.add(
                        "4", "\(name): rotations ÷ raw SQLKit transaction",
                        "not run: SHOW fsync says \(shown) (set on the server's command line?)", goal: "≥ 0.9", met: false)
                    continue
                }
                try await measure(name: name, location: .postgres(url: freshSchema(postgresURL)), seconds: seconds, report: report)
            }
        } catch {
            _ = try? await fsync.set(nil)
            throw error
        }
        let restored = try await fsync.set(nil)
        Console.line("   PostgreSQL fsync reset to the server's configured value (SHOW fsync: \(restored))")
    }

    /// The URL with a schema of its own, so every row starts from empty tables.
    static func freshSchema(_ url: String) -> String {
        let schema = "bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        return url + (url.contains("?") ? "&" : "?") + "schema=" + schema
    }

    static func measure(name: String, location: DatabaseLocation, seconds: Double, report: Report) async throws {
        let server = try await Bench.makeServer(Bench.serverConfiguration(clock: SystemClock(), database: location))
        try await server.withDatabase {
            try await server.prepare()
            try await measure(name: name, server: server, seconds: seconds, report: report)
        }
    }

    static func measure(name: String, server: AuthServer, seconds: Double, report: Report) async throws {
        let store = server.store
        let now = Date()
        let user = try await store.createUser(
            email: "rotate-\(UUID().uuidString.prefix(8))@example.com", passwordHash: "unused", metadata: [:], now: now)
        let policy = RotationPolicy(refreshTokenTTL: server.configuration.refreshTokenTTL, grace: server.configuration.refreshGrace)
        func startSessions() async throws -> [String] {
            var tokens: [String] = []
            for _ in 0..<clients {
                let (_, token) = try await store.createSession(
                    userID: user.id, userAgent: "bench", ip: "127.0.0.1", now: now,
                    refreshTokenTTL: server.configuration.refreshTokenTTL,
                    absoluteTTL: server.configuration.sessionAbsoluteTTL)
                tokens.append(token)
            }
            return tokens
        }
        var latencies: [Double] = []
        let flavor = store.flavor
        let result = try await Repeated.ratio(
            a: {
                let (rate, steps) = try await load(seconds: seconds, start: try await startSessions()) { token in
                    try await store.rotate(refreshToken: token, now: Date(), policy: policy).refreshToken
                }
                latencies += steps
                return rate
            },
            b: {
                try await load(seconds: seconds, start: try await startSessions().map(hexSHA256)) { hash in
                    try await rawRotation(store: store, presentedHash: hash, flavor: flavor)
                }.0
            })
        await report.add("4", "\(name): rotations/s, \(clients) concurrent", result.a, format: Format.rate)
        await report.add("4", "\(name): raw SQLKit transactions/s, \(clients) concurrent", result.b, format: Format.rate)
        await report.add(
            "4", "\(name): rotation latency p50 / p99",
            "\(Format.millis(Stats.percentile(latencies, 0.5))) / \(Format.millis(Stats.percentile(latencies, 0.99)))")
        await report.add("4", "\(name): rotations ÷ raw SQLKit transaction", result.ratio, goal: .atLeast(0.9))
    }

    /// Runs one chain per client for `seconds`; each step feeds the next. Returns steps/s and each step's latency.
    static func load(
        seconds: Double, start: [String], step: @escaping @Sendable (String) async throws -> String
    ) async throws -> (Double, [Double]) {
        let began = ContinuousClock.now
        let deadline = began.advanced(by: .milliseconds(Int(seconds * 1000)))
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for first in start {
                group.addTask {
                    var token = first
                    var mine: [Double] = []
                    while ContinuousClock.now < deadline {
                        let t0 = ContinuousClock.now
                        token = try await step(token)
                        mine.append((ContinuousClock.now - t0).seconds)
                    }
                    return mine
                }
            }
            return try await group.reduce(into: [Double]()) { $0 += $1 }
        }
        return (Double(latencies.count) / (ContinuousClock.now - began).seconds, latencies)
    }

    static func hexSHA256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The baseline: the rotation's reads and writes by hand (`AuthStore.rotate`, the granted path), without
    /// its checks, its row decoding and its crypto, so the ratio is the rotation's own cost.
    ///
    /// Like for like (issue 44, item 4): the same tables read and written, under the same locks, in the same
    /// order, in the fewest statements that keep them. On PostgreSQL: BEGIN; the token ⋈ session (which
    /// session, which user); the user `FOR KEY SHARE`, then the session `FOR UPDATE`, as two statements
    /// because one statement locks rows in its plan's order, not in `deleteUser`'s; the token again, after
    /// the session lock (a read in the locking statement would see the rows of before the wait); the user's
    /// identities and factors in one statement; the successor's INSERT; the parent's and the session's
    /// UPDATEs; COMMIT: **10 statements**. On SQLite the transaction holds the one writer from BEGIN
    /// IMMEDIATE, so the token is not read again: **9**. The writes stay three statements: folding them into
    /// one needs PostgreSQL's data-modifying `WITH`, which SQLite lacks and the rotation does not use.
    /// Before issue 44, item 4 this baseline read neither identities nor factors (9 statements against the rotation's
    /// 11 on PostgreSQL), so figures before then compare unlike work (docs/BENCHMARKS.md, "Item 4").
    static func rawRotation(store: AuthStore, presentedHash: String, flavor: SQLFlavor) async throws -> String {
        let successorHash = hexSHA256(UUID().uuidString)
        let sealed = String(repeating: "s", count: 120)
        let forUpdate = flavor == .postgres ? " FOR UPDATE" : ""
        let forKeyShare = flavor == .postgres ? " FOR KEY SHARE" : ""
        try await store.withTransaction { db in
            guard
                let found = try await db.raw(
                    """
                    SELECT refresh_tokens.*, sessions.user_id AS session_user_id FROM refresh_tokens
                    JOIN sessions ON sessions.id = refresh_tokens.session_id
                    WHERE refresh_tokens.token_hash = \(bind: presentedHash)
                    """
                ).first()
            else { throw BenchError("raw rotation lost its token") }
            let sessionID = try found.decode(column: "session_id", as: String.self)
            let userID = try found.decode(column: "session_user_id", as: String.self)
            _ = try await db.raw("SELECT * FROM users WHERE id = \(bind: userID)\(unsafeRaw: forKeyShare)").first()
            _ = try await db.raw("SELECT * FROM sessions WHERE id = \(bind: sessionID)\(unsafeRaw: forUpdate)").first()
            if flavor == .postgres {
                _ = try await db.raw("SELECT * FROM refresh_tokens WHERE token_hash = \(bind: presentedHash)").first()
            }
            _ = try await db.raw(
                """
                SELECT 'identity' AS kind, id, user_id, provider, provider_id, identity_data, email, created_at, updated_at,
                last_sign_in_at, NULL AS friendly_name, NULL AS factor_type, NULL AS status, NULL AS secret,
                NULL AS last_challenged_at, NULL AS last_step
                FROM identities WHERE user_id = \(bind: userID)
                UNION ALL
                SELECT 'factor', id, user_id, NULL, NULL, NULL, NULL, created_at, updated_at,
                NULL, friendly_name, factor_type, status, secret, last_challenged_at, last_step
                FROM mfa_factors WHERE user_id = \(bind: userID)
                ORDER BY kind, created_at, id
                """
            ).all()
            let now = Date().timeIntervalSince1970
            try await db.raw(
                """
                INSERT INTO refresh_tokens (token_hash, session_id, parent_hash, created_at, expires_at)
                VALUES (\(bind: successorHash), \(bind: sessionID), \(bind: presentedHash), \(bind: now), \(bind: now + 3600))
                """
            ).run()
            try await db.raw(
                """
                UPDATE refresh_tokens SET rotated_at = \(bind: now), successor_hash = \(bind: successorHash),
                sealed_successor = \(bind: sealed) WHERE token_hash = \(bind: presentedHash)
                """
            ).run()
            try await db.raw(
                "UPDATE sessions SET refreshed_at = \(bind: now), active_token_hash = \(bind: successorHash) WHERE id = \(bind: sessionID)"
            ).run()
        }
        return successorHash
    }
}
