import Foundation
import SQLKit

extension AuthStore {
    /// Counts one request in `key`'s window, atomically across replicas: one
    /// upsert that starts a new window when the stored one ended (or starts
    /// after `now`, a clock that stepped back), else adds one.
    ///
    /// - Returns: the window's start and the count including this request.
    /// - Parameter limiter: the rule's name, stored so the prune keeps the row for that rule's whole window.
    func countRateLimited(key: String, limiter: String, window: TimeInterval, now: Date) async throws -> (start: Date, count: Int) {
        let now = now.stored
        let live: SQLQueryString = "rate_limits.window_start <= \(bind: now) AND rate_limits.window_start > \(bind: now - window)"
        return try await driver.transaction { db in
            let row = try await db.raw(
                """
                INSERT INTO rate_limits (key, window_start, count, limiter) VALUES (\(bind: key), \(bind: now), 1, \(bind: limiter))
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

    /// Windows that ended, each by its own limiter's window (``RateLimitRule/all``):
    /// a day's count lives a day, however often the prune runs (issue 37, item 4).
    /// A row of a limiter no rule names (or from before rows named theirs) lives
    /// the longest window of any rule, so no live count goes.
    static func pruneRateLimits(before now: Date, on db: any SQLDatabase) async throws {
        let now = now.stored
        for rule in RateLimitRule.all {
            try await db.raw(
                "DELETE FROM rate_limits WHERE limiter = \(bind: rule.name) AND window_start <= \(bind: now - rule.window)"
            ).run()
        }
        // The names are the code's own constants, never input: safe to write into the text.
        let names = RateLimitRule.all.map { "'\($0.name)'" }.joined(separator: ", ")
        try await db.raw(
            """
            DELETE FROM rate_limits WHERE limiter NOT IN (\(unsafeRaw: names))
            AND window_start <= \(bind: now - RateLimitRule.longestWindow)
            """
        ).run()
    }
}
