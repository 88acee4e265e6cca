import Foundation
import SessionCore

/// A session an app kept itself, as a JSON blob: `accessToken`,
/// `refreshToken`, `expiresAt` and `user` (the snake_case spellings are read too).
///
/// `expiresAt` may be a number of Unix seconds or an ISO-8601 string (with or
/// without fractional seconds, or a number in a string). A value misread here
/// can only make the client refresh first, never trust a dead token: a JWT's
/// own `exp` wins over it, and an implausible one counts as unknown.
public struct LegacySession: Sendable, Hashable {
    public var accessToken: String
    public var refreshToken: String
    /// When the access token expires, if the blob said so readably.
    public var expiresAt: Date?
    /// The person, if the blob's `user` reads as a GoTrue user (it needs at least `id`).
    public var user: SessionUser?

    public init(accessToken: String, refreshToken: String, expiresAt: Date? = nil, user: SessionUser? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.user = user
    }

    /// Reads a blob.
    ///
    /// - Throws: ``SessionError/decoding`` when it is not a JSON object or a
    ///   token is missing (the message names which); a blob without tokens
    ///   can never be imported.
    public static func parse(_ data: Data) throws(SessionError) -> LegacySession {
        let fields: [String: JSONValue]
        do {
            fields = try JSONDecoder().decode([String: JSONValue].self, from: data)
        } catch {
            throw SessionError.decoding.with(
                message: "The saved session from the previous version could not be read.", underlying: "not a JSON object")
        }
        func string(_ names: String...) -> String? {
            names.lazy.compactMap { fields[$0]?.stringValue }.first
        }
        guard let accessToken = string("accessToken", "access_token") else { throw missing("accessToken") }
        guard let refreshToken = string("refreshToken", "refresh_token") else { throw missing("refreshToken") }
        let expiry = fields["expiresAt"] ?? fields["expires_at"]
        return LegacySession(
            accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiry.flatMap(date(from:)),
            user: fields["user"].flatMap(user(from:)))
    }

    private static func missing(_ field: String) -> SessionError {
        SessionError.decoding.with(
            message: "The saved session from the previous version could not be read.", underlying: "field: \(field)")
    }

    /// Unix seconds (a number, or a number in a string), or an ISO-8601 date.
    static func date(from value: JSONValue) -> Date? {
        switch value {
        case .number(let seconds):
            return seconds.isFinite ? Date(timeIntervalSince1970: seconds) : nil
        case .string(let text):
            if let seconds = Double(text), seconds.isFinite { return Date(timeIntervalSince1970: seconds) }
            return WireCoding.parseDate(text)
        default:
            return nil
        }
    }

    private static func user(from value: JSONValue) -> SessionUser? {
        do {
            let data = try JSONEncoder().encode(value)
            return try WireCoding.decoder().decode(SessionUser.self, from: data)
        } catch {
            // The user is a convenience; the server's answer to the import names the person.
            return nil
        }
    }
}

extension LegacySession: CustomStringConvertible {
    /// Redacted: tokens show at most their first 6 characters.
    public var description: String {
        "LegacySession(access: \(TokenRedaction.prefix(accessToken)), refresh: \(TokenRedaction.prefix(refreshToken)), "
            + "expiresAt: \(expiresAt.map(WireCoding.formatDate) ?? "-"), user: \(user?.id ?? "-"))"
    }
}
