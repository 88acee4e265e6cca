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

    /// `user_metadata` for a new user, in the keys Supabase clients read.
    var userMetadata: [String: JSONValue] {
        var metadata: [String: JSONValue] = ["provider_id": .string(id), "sub": .string(id)]
        let first = profile["firstname"]?.stringValue ?? profile["first_name"]?.stringValue
        let last = profile["lastname"]?.stringValue ?? profile["last_name"]?.stringValue
        let name = profile["name"]?.stringValue ?? [first, last].compactMap { $0 }.joined(separator: " ")
        if !name.isEmpty { metadata["full_name"] = .string(name) }
        if let first { metadata["first_name"] = .string(first) }
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
