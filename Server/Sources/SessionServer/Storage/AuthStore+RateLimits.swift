import Foundation
import SQLKit

extension AuthStore {
    /// Counts one request in `key`'s window, atomically across replicas: one
    /// upsert that starts a new window when the stored one ended (or starts
    /// after `now`, a clock that stepped back), else adds one.
    ///
    /// - Returns: the window's start and the count including this request.
    func countRateLimited(key: String, window: TimeInterval, now: Date) async throws -> (start: Date, count: Int) {
        let now = now.stored
        let live: SQLQueryString = "rate_limits.window_start <= \(bind: now) AND rate_limits.window_start > \(bind: now - window)"
        return try await driver.transaction { db in
            let row = try await db.raw(
                """
                INSERT INTO rate_limits (key, window_start, count) VALUES (\(bind: key), \(bind: now), 1)
                ON CONFLICT (key) DO UPDATE SET
                  window_start = CASE WHEN \(live) THEN rate_limits.window_start ELSE EXCLUDED.window_start END,
                  count = CASE WHEN \(live) THEN rate_limits.count + 1 ELSE 1 END
                RETURNING window_start, count
                """
            ).first()
            guard let row else { throw AuthError.internalFailure }
            return (try row.date("window_start"), try row.decode(column: "count", as: Int.self))
        }
    }

    /// Windows that ended long ago; longer than any limiter's window, so no live count goes.
    static func pruneRateLimits(before now: Date, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM rate_limits WHERE window_start < \(bind: now.stored - 3600)").run()
    }
}
