import Foundation
import SessionCore

/// A session an app kept itself, as it was stored.
///
/// The shapes read (docs: the migration article lists them with examples):
/// - the seed app's `{accessToken, refreshToken, expiresAt, user}`;
/// - a Supabase session's snake_case JSON (`access_token`, `refresh_token`,
///   `expires_at`, `expires_in`, `user`), bare or nested under `session` or
///   `currentSession`;
/// - either one as a property list rather than JSON.
///
/// `expiresAt` may be Unix seconds or milliseconds, seconds since 2001
/// (`JSONEncoder`'s default date strategy), an ISO-8601 string, or a number
/// in a string (see `LenientDecoding.date`). A value misread here can only
/// make the client refresh first, never trust a dead token: a JWT's own `exp`
/// wins over it, and an implausible one counts as unknown. An `expires_in`
/// alone says nothing (nobody knows when it was written): unknown.
public struct LegacySession: Sendable, Hashable {
    public var accessToken: String
    public var refreshToken: String
    /// When the access token expires, if the blob said so readably.
    public var expiresAt: Date?
    /// The person, if the blob's `user` reads as a user (it needs at least `id`).
    public var user: SessionUser?

    public init(accessToken: String, refreshToken: String, expiresAt: Date? = nil, user: SessionUser? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.user = user
    }

    /// Objects that may hold the session, outermost first.
    static let nestingKeys = ["session", "currentSession", "current_session"]

    /// Reads a blob.
    ///
    /// - Throws: ``SessionError/decoding`` when it is neither a JSON object
    ///   nor a property-list dictionary, or no object in it holds both tokens
    ///   (the underlying detail names which). The migration keeps such a blob.
    public static func parse(_ data: Data) throws(SessionError) -> LegacySession {
        guard let root = object(from: data) else { throw unreadable("not a JSON object or a property list") }
        let candidates = [root] + nestingKeys.compactMap { key -> [String: JSONValue]? in
            if case .object(let nested)? = root[key] { return nested }
            return nil
        }
        for fields in candidates {
            guard let accessToken = string(fields, "accessToken", "access_token"),
                let refreshToken = string(fields, "refreshToken", "refresh_token")
            else { continue }
            // supabase-swift kept the expiry beside the session (`expirationDate`), not in it.
            let expiry = ["expiresAt", "expires_at", "expirationDate", "expiration_date"].lazy
                .compactMap { fields[$0] ?? root[$0] }.first
            return LegacySession(
                accessToken: accessToken, refreshToken: refreshToken, expiresAt: LenientDecoding.date(expiry),
                user: fields["user"].flatMap(user(from:)))
        }
        let hasAccess = candidates.contains { string($0, "accessToken", "access_token") != nil }
        throw unreadable("field: \(hasAccess ? "refreshToken" : "accessToken")")
    }

    private static func string(_ fields: [String: JSONValue], _ names: String...) -> String? {
        names.lazy.compactMap { fields[$0]?.stringValue }.first
    }

    private static func unreadable(_ detail: String) -> SessionError {
        SessionError.decoding.with(message: "The saved session from the previous version could not be read.", underlying: detail)
    }

    /// The blob as an object: JSON, else a property list (a dictionary saved with `set(_:forKey:)`
    /// and read back as data), its dates as RFC 3339 strings (unambiguous, whatever the year).
    private static func object(from data: Data) -> [String: JSONValue]? {
        do {
            return try JSONDecoder().decode([String: JSONValue].self, from: data)
        } catch {
            // Not JSON: maybe a property list.
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            return nil
        }
        if case .object(let fields)? = jsonValue(plist) { return fields }
        return nil
    }

    static func jsonValue(_ value: Any) -> JSONValue? {
        switch value {
        case let text as String: return .string(text)
        case let date as Date: return .string(WireCoding.formatDate(date))
        // Numbers before `Bool`: on Apple platforms an `NSNumber` 1 also casts to `true`.
        case let number as Int: return .number(Double(number))
        case let number as Double: return .number(number)
        case let flag as Bool: return .bool(flag)
        case let number as NSNumber: return .number(number.doubleValue)
        case let data as Data: return String(data: data, encoding: .utf8).map(JSONValue.string)
        case let array as [Any]: return .array(array.compactMap(jsonValue))
        case let dictionary as [String: Any]: return .object(dictionary.compactMapValues(jsonValue))
        default: return nil
        }
    }

    /// The user leniently (``SessionUser/init(from:)``), accepting the seed app's camelCase keys too.
    private static func user(from value: JSONValue) -> SessionUser? {
        guard case .object(var fields) = value else { return nil }
        let camel = ["emailConfirmedAt": "email_confirmed_at", "lastSignInAt": "last_sign_in_at",
            "userMetadata": "user_metadata", "appMetadata": "app_metadata", "isAnonymous": "is_anonymous",
            "createdAt": "created_at", "updatedAt": "updated_at", "bannedUntil": "banned_until"]
        for (from, to) in camel where fields[to] == nil {
            if let moved = fields.removeValue(forKey: from) { fields[to] = moved }
        }
        do {
            let data = try JSONEncoder().encode(JSONValue.object(fields))
            return try WireCoding.decoder().decode(SessionUser.self, from: data)
        } catch {
            // The user is a convenience; the server's answer to the import names the person.
            return nil
        }
    }
}

extension LegacySession: CustomStringConvertible, CustomDebugStringConvertible {
    public var debugDescription: String { description }

    /// Redacted: no character of either token.
    public var description: String {
        "LegacySession(access: \(TokenRedaction.redacted(accessToken)), refresh: \(TokenRedaction.redacted(refreshToken)), "
            + "expiresAt: \(expiresAt.map(WireCoding.formatDate) ?? "-"), user: \(user?.id ?? "-"))"
    }
}
