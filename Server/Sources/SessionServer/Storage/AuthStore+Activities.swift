import Foundation
import SQLKit
import SessionCore

extension AuthStore {
    static func activity(from row: any SQLRow) throws -> Activity {
        Activity(
            id: try row.string("id"), name: try row.string("name"),
            distanceM: try row.decode(column: "distance_m", as: Double.self), startedAt: try row.date("started_at"))
    }

    /// Stores a new activity owned by `userID`.
    public func createActivity(_ new: NewActivity, userID: String, now: Date) async throws -> Activity {
        let activity = Activity(
            id: UUID().uuidString.lowercased(), name: new.name, distanceM: new.distanceM, startedAt: new.startedAt)
        try await driver.transaction { db in
            try await db.raw(
                """
                INSERT INTO activities (id, user_id, name, distance_m, started_at, created_at)
                VALUES (\(bind: activity.id), \(bind: userID), \(bind: new.name), \(bind: new.distanceM),
                \(bind: new.startedAt.stored), \(bind: now.stored))
                """
            ).run()
        }
        return activity
    }

    /// `userID`'s activities, newest first.
    public func activities(userID: String) async throws -> [Activity] {
        try await driver.transaction { db in
            try await db.raw(
                "SELECT * FROM activities WHERE user_id = \(bind: userID) ORDER BY started_at DESC, id"
            ).all().map(Self.activity(from:))
        }
    }

    /// The activity `id` if `userID` owns it; another user's row is as good as missing.
    public func activity(id: String, userID: String) async throws -> Activity? {
        try await driver.transaction { db in
            try await db.raw(
                "SELECT * FROM activities WHERE id = \(bind: id) AND user_id = \(bind: userID)"
            ).first().map(Self.activity(from:))
        }
    }

    /// Deletes the activity `id` if `userID` owns it.
    ///
    /// - Returns: `false` when there was no such row of theirs.
    public func deleteActivity(id: String, userID: String) async throws -> Bool {
        try await driver.transaction { db in
            let found = try await db.raw(
                "SELECT id FROM activities WHERE id = \(bind: id) AND user_id = \(bind: userID)"
            ).first()
            guard found != nil else { return false }
            try await db.raw("DELETE FROM activities WHERE id = \(bind: id) AND user_id = \(bind: userID)").run()
            return true
        }
    }
}
