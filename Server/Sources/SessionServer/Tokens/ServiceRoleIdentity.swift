import Foundation
import SessionCore

/// The name and id a service-role key carries (`key_name`, `jti`), read from
/// a key whose signature was already verified, so the console and the audit
/// log can say which key acted without ever storing the key (issue 29, item 8).
/// Keys printed before names existed read as `unnamed`, with their signing
/// key and issue time as the id.
public struct ServiceRoleIdentity: Sendable, Hashable {
    public var name: String
    public var id: String

    /// Names are the operator's label in logs and pages: short, and nothing a
    /// page or a log line would have to escape.
    public static func isValid(name: String) -> Bool {
        (1...64).contains(name.count)
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }
    }

    init(name: String, id: String) {
        self.name = name
        self.id = id
    }

    /// - Parameter verified: the key, already verified; `token` is its text.
    init(token: String, verified: VerifiedAccessToken) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        let payload = parts.count == 3 ? Base64URL.decode(parts[1]) : nil
        let claims = payload.flatMap(Self.claims(in:))
        let name = claims?.keyName.flatMap { Self.isValid(name: $0) ? $0 : nil }
        let id = claims?.jti.flatMap { Self.isValid(name: $0) ? $0 : nil }
        let issued = verified.claims.iat.map { String(Int($0.timeIntervalSince1970)) } ?? "?"
        self.init(name: name ?? "unnamed", id: id ?? "\(verified.keyID ?? "?")@\(issued)")
    }

    /// The naming claims of a verified payload; a payload without them (a key
    /// printed before names existed) reads as unnamed, which is a label, not a
    /// failure: the signature already decided that the key is good.
    private static func claims(in payload: Data) -> Claims? {
        do {
            return try JSONDecoder().decode(Claims.self, from: payload)
        } catch {
            return nil
        }
    }

    private struct Claims: Decodable {
        var jti: String?
        var keyName: String?

        enum CodingKeys: String, CodingKey {
            case jti
            case keyName = "key_name"
        }
    }
}
