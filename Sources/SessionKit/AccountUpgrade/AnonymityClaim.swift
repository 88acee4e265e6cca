import Foundation
import SessionCore

/// The access token's `is_anonymous` claim (GoTrue writes it on every token),
/// read without a signature check as the client reads `exp`: it says what to
/// show and what to guard, never what the server allows.
struct AnonymityClaim: Decodable, Sendable {
    var isAnonymous: Bool?

    enum CodingKeys: String, CodingKey { case isAnonymous = "is_anonymous" }

    /// The claim of `accessToken`; `nil` for an opaque token, a payload that is not JSON, or a claim of another shape.
    static func of(_ accessToken: String) -> Bool? {
        let parts = accessToken.split(separator: ".", omittingEmptySubsequences: false)
        guard accessToken.utf8.count <= UnverifiedJWT.maximumLength, parts.count == 3,
            let payload = Base64URL.decode(parts[1])
        else { return nil }
        do {
            return try JSONDecoder().decode(Self.self, from: payload).isAnonymous
        } catch {
            // Another shape: no claim read; the user record (if any) decides.
            return nil
        }
    }
}
