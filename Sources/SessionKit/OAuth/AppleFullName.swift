import Foundation
import SessionCore

/// The name a person gave Sign in with Apple.
///
/// Apple sends it only on the first authorization of the app by that Apple
/// ID (`ASAuthorizationAppleIDCredential.fullName`), and never in the ID
/// token: the server cannot learn it by itself. An app that drops it on the
/// first sign-in cannot ask again (short of the person revoking the app in
/// their Apple ID settings). Compiled everywhere; the Apple binding only copies
/// `PersonNameComponents` into it.
public struct AppleFullName: Sendable, Hashable {
    public var givenName: String?
    public var middleName: String?
    public var familyName: String?
    public var nickname: String?

    public init(givenName: String? = nil, middleName: String? = nil, familyName: String? = nil, nickname: String? = nil) {
        self.givenName = givenName
        self.middleName = middleName
        self.familyName = familyName
        self.nickname = nickname
    }

    /// From Apple's components; `nil` when Apple sent none (every sign-in after the first).
    public init?(_ components: PersonNameComponents?) {
        guard let components else { return nil }
        self.init(
            givenName: components.givenName, middleName: components.middleName, familyName: components.familyName,
            nickname: components.nickname)
        if isEmpty { return nil }
    }

    /// True when no part of the name has any text.
    public var isEmpty: Bool {
        [givenName, middleName, familyName, nickname].allSatisfy { ($0 ?? "").trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Given, middle and family name, space-separated (`nil` when there are none).
    public var fullName: String? {
        let parts = [givenName, middleName, familyName].compactMap { $0?.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The user metadata it is written as: `full_name`, `given_name`,
    /// `family_name` (the keys GoTrue fills from other providers' profiles).
    public var metadata: [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        if let fullName { fields["full_name"] = .string(fullName) }
        if let givenName, !givenName.isEmpty { fields["given_name"] = .string(givenName) }
        if let familyName, !familyName.isEmpty { fields["family_name"] = .string(familyName) }
        if let nickname, !nickname.isEmpty { fields["nickname"] = .string(nickname) }
        return fields
    }
}
