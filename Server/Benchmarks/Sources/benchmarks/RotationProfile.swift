import Foundation
import SessionCore
import SessionServer

/// `benchmarks profile-rotation ours|raw N [SQLITE_PATH|POSTGRES_URL]`: N rotations of one session, one
/// after another, through `AuthStore.rotate` (`ours`) or item 4's like-for-like raw transaction (`raw`),
/// for `valgrind --tool=callgrind` (issue 44, item 4). Nothing concurrent, no timing: run it twice with
/// different N and divide the difference in instructions by the difference in N, so the process's setup
/// (migrations, signing keys) cancels out. SQLite in a fresh file under /tmp unless a location is given.
enum RotationProfile {
    static func main(_ arguments: [String]) async throws {
        let arm = arguments.first ?? "ours"
        guard arm == "ours" || arm == "raw" else { throw BenchError("profile-rotation: the arm is ours or raw, not \(arm)") }
        let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 100
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("profile-rotation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { _ = try? FileManager.default.removeItem(at: directory) }
        let location: DatabaseLocation
        switch arguments.dropFirst(2).first {
        case let url? where url.hasPrefix("postgres"): location = .postgres(url: RefreshThroughput.freshSchema(url))
        case let path?: location = .sqlite(path: path)
        case nil: location = .sqlite(path: directory.appendingPathComponent("auth.sqlite").path)
        }
        let server = try await Bench.makeServer(Bench.serverConfiguration(clock: SystemClock(), database: location))
        try await server.withDatabase {
            try await server.prepare()
            let store = server.store
            let configuration = server.configuration
            let now = Date()
            let user = try await store.createUser(
                email: "profile-\(UUID().uuidString.prefix(8))@example.com", passwordHash: "unused", metadata: [:], now: now)
            let (_, first) = try await store.createSession(
                userID: user.id, userAgent: "bench", ip: "127.0.0.1", now: now, refreshTokenTTL: configuration.refreshTokenTTL,
                absoluteTTL: configuration.sessionAbsoluteTTL)
            let policy = RotationPolicy(refreshTokenTTL: configuration.refreshTokenTTL, grace: configuration.refreshGrace)
            var token = arm == "ours" ? first : RefreshThroughput.hexSHA256(first)
            for _ in 0..<count {
                token =
                    arm == "ours"
                    ? try await store.rotate(refreshToken: token, now: Date(), policy: policy).refreshToken
                    : try await RefreshThroughput.rawRotation(store: store, presentedHash: token, flavor: store.flavor)
            }
            print("profile-rotation: \(count) \(arm) rotations on \(store.flavor)")
        }
    }
}
