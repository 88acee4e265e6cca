import SQLKit

extension AuthStore {
    /// A user's identities and factors in one statement: what
    /// ``fetchIdentities(userID:on:)`` and ``fetchFactors(userID:on:)`` return,
    /// in the same order, for one round trip instead of two.
    ///
    /// The rotation reads both for its answer on every refresh; with the database
    /// a round trip away, a rotation's cost is its statement count
    /// (docs/BENCHMARKS.md, "Item 4: the request path's misses"). The two
    /// tables' columns are aligned under their own names (a column the other
    /// table lacks is NULL there), so each row decodes with the table's own
    /// decoder; `kind` says which. Both halves read through their `user_id`
    /// index, as the two statements did. It takes no lock, as they took none.
    static func fetchIdentitiesAndFactors(
        userID: String, on db: any SQLDatabase
    ) async throws -> (identities: [IdentityRecord], factors: [FactorRecord]) {
        let rows = try await db.raw(
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
        var identities: [IdentityRecord] = []
        var factors: [FactorRecord] = []
        for row in rows {
            if try row.string("kind") == "identity" {
                identities.append(try identity(from: row))
            } else {
                factors.append(try factor(from: row))
            }
        }
        return (identities, factors)
    }
}
