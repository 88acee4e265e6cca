import Foundation
import SessionCore

/// The shape metadata may have when stored: how deep it nests and how many
/// values it holds (issue 29, item 4). The size cap (64 KiB) is
/// ``AuthStore/maximumMetadataBytes``.
///
/// Checked where every write path meets the database (``AuthStore/encodeMetadata(_:)``):
/// sign-up, `/otp`, `PUT /user`, `PATCH /v1/auth/me`, the admin API and
/// provider profiles. Metadata nested 508 deep was once accepted and then
/// broke every admin list page holding its user, since JSON readers stop at
/// about 512 levels.
enum MetadataLimits {
    /// Levels of nesting: `{"a": 1}` is 1, `{"a": {"b": [1]}}` is 3.
    static let maximumDepth = 16
    /// Object keys and array elements, at every level together.
    static let maximumEntries = 1_000

    /// - Throws: ``AuthError/invalidRequest(field:_:)`` naming the limit exceeded.
    static func check(_ metadata: [String: JSONValue]) throws {
        var entries = 0
        // Iterative, so no nesting however deep can exhaust the stack.
        var pending: [(value: JSONValue, depth: Int)] = [(.object(metadata), 1)]
        while let item = pending.popLast() {
            let (value, depth) = item
            let children: [JSONValue]
            switch value {
            case .object(let object): children = Array(object.values)
            case .array(let array): children = array
            default: continue
            }
            guard depth <= maximumDepth else {
                throw AuthError.invalidRequest(
                    field: "data", "Metadata may nest at most \(maximumDepth) levels deep; flatten it or store it elsewhere.")
            }
            entries += children.count
            guard entries <= maximumEntries else {
                throw AuthError.invalidRequest(
                    field: "data", "Metadata may hold at most \(maximumEntries) keys and array elements in all; remove some.")
            }
            pending += children.map { ($0, depth + 1) }
        }
    }
}
