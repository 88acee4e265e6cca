import Foundation

/// A parsed OAuth callback: a one-time PKCE `code`, or (the older form)
/// tokens handed back directly.
///
/// ``parse(_:)`` is a pure function of the URL — no I/O, no state — so it
/// can be tested with a table of bad URLs and fuzzed. It reads the query and
/// the fragment, checks for an `error` first, and names the field that is
/// missing or malformed.
public struct OAuthCallback: Sendable, Hashable {
    /// Tokens from a backend that returns them directly.
    public struct Tokens: Sendable, Hashable {
        public var accessToken: String
        public var refreshToken: String
        public var expiresIn: Int
        /// Absolute expiry, when the callback gives one (`expires_at`, Unix seconds).
        public var expiresAt: Int?
        public var userID: String
        public var tokenType: String
        /// The `state` the callback carried; the client accepts tokens only
        /// when it matches the sign-in it started.
        public var state: String?
    }

    public enum Result: Sendable, Hashable {
        /// Exchange with the stored PKCE verifier (`grant_type=pkce`).
        case code(String)
        /// Use as a session after confirming it with the server.
        case tokens(Tokens)
    }

    public let result: Result

    /// Largest callback URL read; longer ones are refused before parsing.
    static let maximumLength = 32 * 1024

    /// Parses `url`.
    ///
    /// - Throws: ``OAuthCallbackError``: ``OAuthCallbackError/provider(error:errorCode:description:)``
    ///   when the callback reports an error; `missing`/`malformed` naming the field; `notACallback`.
    public static func parse(_ url: URL) throws(OAuthCallbackError) -> OAuthCallback {
        let text = url.absoluteString
        guard text.utf8.count <= maximumLength, let components = URLComponents(string: text), components.scheme != nil else {
            throw .notACallback
        }
        var fields: [String: String] = [:]
        try collect(components.percentEncodedQuery, into: &fields)
        try collect(components.percentEncodedFragment, into: &fields)

        if let error = fields["error"] ?? fields["error_code"] {
            throw .provider(
                error: String(error.prefix(100)), errorCode: fields["error_code"].map { String($0.prefix(100)) },
                description: fields["error_description"].map { String($0.prefix(500)) })
        }
        if let code = fields["code"] {
            return OAuthCallback(result: .code(try opaque("code", code, maximum: 512)))
        }
        let tokenFields = ["access_token", "refresh_token", "expires_in", "user_id"]
        guard tokenFields.contains(where: { fields[$0] != nil }) else { throw .missing("code") }
        let accessToken = try opaque("access_token", required("access_token", fields), maximum: 16 * 1024)
        let refreshToken = try opaque("refresh_token", required("refresh_token", fields), maximum: 2048)
        let expiresIn = try integer("expires_in", required("expires_in", fields), in: 1...31_536_000)
        let userID = try opaque("user_id", required("user_id", fields), maximum: 255)
        let expiresAt = try fields["expires_at"].map { value throws(OAuthCallbackError) in
            try integer("expires_at", value, in: 1...253_402_300_799)
        }
        let tokenType = fields["token_type"] ?? "bearer"
        guard tokenType.lowercased() == "bearer" else { throw .malformed("token_type", "is not bearer") }
        return OAuthCallback(
            result: .tokens(
                Tokens(
                    accessToken: accessToken, refreshToken: refreshToken, expiresIn: expiresIn, expiresAt: expiresAt,
                    userID: userID, tokenType: "bearer", state: try fields["state"].map { value throws(OAuthCallbackError) in
                        try opaque("state", value, maximum: 512)
                    })))
    }

    /// Adds `name=value` pairs; a name given twice with different values is refused,
    /// since which one a reader takes would be a guess an attacker could steer.
    private static func collect(_ encoded: String?, into fields: inout [String: String]) throws(OAuthCallbackError) {
        guard let encoded, !encoded.isEmpty else { return }
        for pair in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0])
            let rawValue = parts.count > 1 ? String(parts[1]) : ""
            guard let name = decode(rawName) else { throw .notACallback }
            guard let value = decode(rawValue) else { throw .malformed(name, "is not valid percent-encoding") }
            if let existing = fields[name], existing != value { throw .malformed(name, "appears twice with different values") }
            fields[name] = value
        }
    }

    /// Percent-decoding, with `+` as a space as form encoding has it.
    private static func decode(_ text: String) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    private static func required(_ name: String, _ fields: [String: String]) throws(OAuthCallbackError) -> String {
        guard let value = fields[name] else { throw .missing(name) }
        return value
    }

    /// A token or id: non-empty, bounded, printable ASCII without spaces.
    private static func opaque(_ name: String, _ value: String, maximum: Int) throws(OAuthCallbackError) -> String {
        guard !value.isEmpty else { throw .missing(name) }
        guard value.utf8.count <= maximum else { throw .malformed(name, "is longer than \(maximum) bytes") }
        guard value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .malformed(name, "holds spaces or characters a \(name) cannot have")
        }
        return value
    }

    private static func integer(_ name: String, _ value: String, in range: ClosedRange<Int>) throws(OAuthCallbackError) -> Int {
        guard !value.isEmpty else { throw .missing(name) }
        guard value.count <= 20, let number = Int(value), range.contains(number) else {
            throw .malformed(name, "is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
