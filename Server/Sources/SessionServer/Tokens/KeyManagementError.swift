/// Why `auth-server keys …` refused a change.
public struct KeyManagementError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        case unknownKey, signingKey
    }

    public let code: Code
    /// The kid the command named.
    public let kid: String

    public static func unknownKey(_ kid: String) -> KeyManagementError { .init(code: .unknownKey, kid: kid) }
    public static func signingKey(_ kid: String) -> KeyManagementError { .init(code: .signingKey, kid: kid) }

    public var description: String {
        switch code {
        case .unknownKey:
            "No signing key has the id '\(kid.prefix(64))'; `auth-server keys list` shows them."
        case .signingKey:
            "'\(kid)' is the key that signs new tokens and cannot be retired; run `auth-server keys rotate` first, then retire it."
        }
    }
}
