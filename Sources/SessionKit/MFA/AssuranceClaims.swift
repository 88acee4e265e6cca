import Foundation
import SessionCore

/// The access token's `aal` and `amr` claims, read without a signature check
/// (as the client reads `exp`): they say what to ask the person, never what
/// the server allows; the server checks the signed token itself (docs/MFA.md, "Tokens").
struct AssuranceClaims: Decodable, Sendable {
    struct Method: Decodable, Sendable {
        var method: String
        var timestamp: Double?
    }

    var aal: String?
    var amr: [Method]?

    /// The claims of `accessToken`; `nil` for an opaque token or one whose payload is not JSON.
    init?(accessToken: String) {
        let parts = accessToken.split(separator: ".", omittingEmptySubsequences: false)
        guard accessToken.utf8.count <= UnverifiedJWT.maximumLength, parts.count == 3,
            let payload = Base64URL.decode(parts[1])
        else { return nil }
        do {
            self = try JSONDecoder().decode(Self.self, from: payload)
        } catch {
            // A token whose `aal`/`amr` have another shape: no level read, the session itself is untouched.
            return nil
        }
    }

    var level: AuthenticatorAssuranceLevel? { aal.map(AuthenticatorAssuranceLevel.init(rawValue:)) }

    /// `amr` as entries, newest first; entries without a usable time are left out.
    var methods: [AMREntry] {
        (amr ?? []).compactMap { entry in
            guard let seconds = entry.timestamp, seconds.isFinite, abs(seconds) < 1e11 else { return nil }
            return AMREntry(method: entry.method, timestamp: Date(timeIntervalSince1970: seconds))
        }.sorted { $0.timestamp > $1.timestamp }
    }
}
