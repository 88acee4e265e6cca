/// The access control of the session's Keychain item: `SecAccessControlCreateFlags`,
/// with the Security framework's values, so the fake and the device agree.
public struct BiometricProtection: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The `SecAccessControlCreateFlags` bits.
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// `.userPresence`: biometrics or the device passcode; survives a change of enrolled biometrics.
    public static let userPresence = Self(rawValue: 1 << 0)
    /// `.biometryAny`: any enrolled biometrics; survives a change of them.
    public static let biometryAny = Self(rawValue: 1 << 1)
    /// `.biometryCurrentSet`: the biometrics enrolled now. "The item is invalidated if fingers
    /// are added or removed for Touch ID, or if the user re-enrolls for Face ID"
    /// (developer.apple.com/documentation/security/secaccesscontrolcreateflags/biometrycurrentset).
    public static let biometryCurrentSet = Self(rawValue: 1 << 3)

    /// True when a change of enrolled biometrics invalidates the item.
    public var isInvalidatedByEnrollmentChange: Bool { self == .biometryCurrentSet }

    public var description: String {
        switch self {
        case .userPresence: "userPresence"
        case .biometryAny: "biometryAny"
        case .biometryCurrentSet: "biometryCurrentSet"
        default: "SecAccessControlCreateFlags(\(rawValue))"
        }
    }
}
