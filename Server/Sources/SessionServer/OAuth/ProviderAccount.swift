import Foundation
import SessionCore

/// The outside account a provider vouched for.
struct ProviderAccount: Sendable, Hashable {
    /// The provider's id for the account (Strava's athlete id), as text.
    var id: String
    /// What the provider told about the account (Strava's `athlete`), kept as identity data.
    var profile: [String: JSONValue]
    /// The account's email, when the provider gives one.
    var email: String?
    /// Whether the provider says it verified ``email`` (OpenID Connect's
    /// `email_verified`, Google's older `verified_email`). Without that word
    /// the address is only a claim: whoever holds the provider account may
    /// have typed someone else's address (docs/OAUTH.md, "What the server does (and does not) keep").
    var emailVerified: Bool = false

    /// `user_metadata` for a new user, in the keys Supabase clients read.
    var userMetadata: [String: JSONValue] {
        var metadata: [String: JSONValue] = ["provider_id": .string(id), "sub": .string(id)]
        let first = profile["firstname"]?.stringValue ?? profile["first_name"]?.stringValue
        let last = profile["lastname"]?.stringValue ?? profile["last_name"]?.stringValue
        let name = profile["name"]?.stringValue ?? [first, last].compactMap { $0 }.joined(separator: " ")
        if !name.isEmpty { metadata["full_name"] = .string(name) }
        if let first { metadata["first_name"] = .string(first) }
        if let email {
            // Supabase clients read these from user_metadata, as GoTrue fills them.
            metadata["email"] = .string(email)
            metadata["email_verified"] = .bool(emailVerified)
        }
        if let avatar = profile["profile"]?.stringValue ?? profile["avatar_url"]?.stringValue ?? profile["picture"]?.stringValue {
            metadata["avatar_url"] = .string(avatar)
        }
        return metadata
    }

    /// Reads a dotted path (`athlete.id`) from a JSON object.
    static func value(at path: String, in object: [String: JSONValue]) -> JSONValue? {
        var current = JSONValue.object(object)
        for key in path.split(separator: ".") {
            guard case .object(let fields) = current, let next = fields[String(key)] else { return nil }
            current = next
        }
        return current
    }

    /// Whether `source` (then `profile`) says the email is verified: a JSON
    /// `true`, or the string `"true"` as Apple and Cognito send it. Anything
    /// else, missing included, is unverified.
    static func emailVerified(in source: [String: JSONValue], profile: [String: JSONValue]) -> Bool {
        for object in [source, profile] {
            for key in ["email_verified", "verified_email"] {
                switch object[key] {
                case .bool(let flag)?: return flag
                case .string(let text)?: return text.lowercased() == "true"
                default: continue
                }
            }
        }
        return false
    }

    /// An account id as text: a non-empty string, or a whole number (Strava's ids are numbers).
    static func accountID(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed.count > 255 ? nil : trimmed
        case .number(let number)? where number.rounded() == number && abs(number) < 9_007_199_254_740_992:
            return String(Int64(number))
        default:
            return nil
        }
    }
}
