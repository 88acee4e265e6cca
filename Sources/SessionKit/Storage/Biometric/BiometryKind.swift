/// Which biometrics the device offers for the gate, so the app can name it
/// ("Unlock with Face ID") or not offer the gate at all.
public struct BiometryKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// No biometrics usable now (none enrolled, none on the device, no passcode set).
    public static let none = Self(rawValue: "none")
    /// Touch ID.
    public static let touchID = Self(rawValue: "Touch ID")
    /// Face ID.
    public static let faceID = Self(rawValue: "Face ID")
    /// Optic ID (Apple Vision Pro).
    public static let opticID = Self(rawValue: "Optic ID")

    public var description: String { rawValue }
}
