/// The result code of a keychain call: an `OSStatus`, with the Security framework's values.
///
/// An open set, as `OSStatus` is: a code without a name here is kept and
/// reported by number, never folded into another case.
public struct KeychainStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The `OSStatus` value.
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `errSecSuccess`.
    public static let success = Self(rawValue: 0)
    /// `errSecItemNotFound`: no such item, or (before the first unlock) none that can be seen yet.
    public static let itemNotFound = Self(rawValue: -25300)
    /// `errSecDuplicateItem`: `add` found the item already there.
    public static let duplicateItem = Self(rawValue: -25299)
    /// `errSecInteractionNotAllowed`: the device is locked and the item's accessibility forbids reading it now.
    public static let interactionNotAllowed = Self(rawValue: -25308)
    /// `errSecAuthFailed`: the keychain refused the credentials (a changed passcode, a damaged keychain).
    public static let authFailed = Self(rawValue: -25293)
    /// `errSecDecode`: the keychain could not decode its own data.
    public static let decode = Self(rawValue: -26275)
    /// `errSecMissingEntitlement`: the app lacks the entitlement for this access group or keychain.
    public static let missingEntitlement = Self(rawValue: -34018)
    /// `errSecNotAvailable`: no keychain is available.
    public static let notAvailable = Self(rawValue: -25291)
    /// `errSecParam`: the query was malformed.
    public static let param = Self(rawValue: -50)
    /// `errSecAllocate`: out of memory.
    public static let allocate = Self(rawValue: -108)
    /// `errSecUnimplemented`: the call is not implemented on this platform.
    public static let unimplemented = Self(rawValue: -4)

    /// The Security framework's name for the code, when it is one of the above.
    public var name: String? {
        switch self {
        case .success: "errSecSuccess"
        case .itemNotFound: "errSecItemNotFound"
        case .duplicateItem: "errSecDuplicateItem"
        case .interactionNotAllowed: "errSecInteractionNotAllowed"
        case .authFailed: "errSecAuthFailed"
        case .decode: "errSecDecode"
        case .missingEntitlement: "errSecMissingEntitlement"
        case .notAvailable: "errSecNotAvailable"
        case .param: "errSecParam"
        case .allocate: "errSecAllocate"
        case .unimplemented: "errSecUnimplemented"
        default: nil
        }
    }

    public var description: String {
        name.map { "\($0) (\(rawValue))" } ?? "OSStatus \(rawValue)"
    }
}
