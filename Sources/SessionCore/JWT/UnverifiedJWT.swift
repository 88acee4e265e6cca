import Foundation

/// A JWT split and decoded, with no signature check.
///
/// The client reads `exp` and `session_id` from its own tokens this way; the
/// server must never trust a token read like this (it verifies with jwt-kit).
public struct UnverifiedJWT: Sendable, Hashable {
    /// The JOSE header fields SessionKit looks at.
    public struct Header: Sendable, Hashable, Codable {
        public var alg: String?
        public var kid: String?
        public var typ: String?
        public init(alg: String?, kid: String?, typ: String?) {
            self.alg = alg
            self.kid = kid
            self.typ = typ
        }
    }

    public let header: Header
    public let claims: JWTClaims

    /// The largest token accepted: real access tokens are well under 2 KiB.
    public static let maximumLength = 8 * 1024

    /// Splits and decodes `token`.
    ///
    /// - Throws: ``JWTDecodingError`` naming the part that was wrong.
    public init(_ token: String) throws(JWTDecodingError) {
        guard token.utf8.count <= Self.maximumLength else { throw .tooLarge }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else { throw .malformed }
        header = try Self.decodePart(parts[0], as: Header.self, name: "header")
        claims = try Self.decodePart(parts[1], as: JWTClaims.self, name: "payload")
    }

    private static func decodePart<T: Decodable>(
        _ part: Substring, as type: T.Type, name: String
    ) throws(JWTDecodingError) -> T {
        guard let data = Base64URL.decode(part) else { throw .badEncoding(part: name) }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .badJSON(part: name, detail: Self.describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, _):
            return "missing \(key.stringValue)"
        default:
            return "not a JSON object"
        }
    }
}
