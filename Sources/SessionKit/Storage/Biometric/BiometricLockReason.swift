/// Why the biometric gate is closed: the state ``SessionState/locked(_:)`` carries it.
///
/// Never a sign-out: the record stays stored, and the next successful check continues.
public struct BiometricLockReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The person cancelled the sheet (`errSecUserCanceled`, -128): show "Unlock", ask again when they tap it.
    public static let cancelled = Self(rawValue: "cancelled")
    /// The check failed (`errSecAuthFailed`, -25293): show "Unlock", ask again when they tap it.
    public static let failed = Self(rawValue: "failed")
    /// A check is due but no UI may be shown (the app in the background, an extension,
    /// a widget: `errSecInteractionNotAllowed`, -25308). It waits for the app in front.
    public static let needsForeground = Self(rawValue: "needs foreground")
    /// Biometrics were enrolled anew: a `.biometryCurrentSet` item is invalidated for good.
    /// Told once; the person signs in again. The record is not deleted before the app signs in or out.
    public static let biometryChanged = Self(rawValue: "biometry changed")

    public var description: String { rawValue }
}
