import Foundation
import SQLKit

extension AuthStore {
    /// A sign-up for an address whose account still waits for confirmation
    /// (issue 37, item 1): whoever signed it up first proved nothing, and the
    /// mail of either request lands in the same inbox. The first password and
    /// `user_metadata` go now, not when a code is redeemed, so no code, the
    /// first sign-up's included, can confirm a password set before the newest
    /// sign-up request.
    func forgetUnconfirmedSignUp(email: String, now: Date) async throws {
        let forUpdate = driver.flavor.forUpdate
        try await revokingSessions(changingUsers: true) { db in
            guard
                let row = try await db.raw(
                    "SELECT id FROM users WHERE email = \(bind: email) AND email_confirmed_at IS NULL\(unsafeRaw: forUpdate)"
                ).first()
            else { return }
            try await Self.forgetUnprovenSignUp(userID: try row.string("id"), now: now, on: db)
        }
    }
}
