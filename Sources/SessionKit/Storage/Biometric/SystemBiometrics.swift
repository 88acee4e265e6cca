#if canImport(LocalAuthentication) && !os(watchOS)
import Foundation
import LocalAuthentication

/// What LocalAuthentication says about this device's biometrics: whether to offer
/// ``BiometricPolicy`` and what to call it. Never asks the person anything.
public enum SystemBiometrics {
    /// The biometrics usable now, `.none` when `canEvaluatePolicy` says they are not
    /// (not enrolled, not available, locked out, no passcode).
    public static func available() -> BiometryKind {
        let context = LAContext()
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else { return .none }
        switch context.biometryType {
        case .touchID: return .touchID
        case .faceID: return .faceID
        case .opticID: return .opticID
        case .none: return .none
        @unknown default: return .none
        }
    }

    /// Why biometrics cannot be used now, in words for a settings screen; `nil` when they can.
    public static func unavailableReason() -> String? {
        var error: NSError?
        guard !LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else { return nil }
        guard let error, error.domain == LAErrorDomain else { return "Biometrics cannot be used on this device." }
        switch LAError.Code(rawValue: error.code) {
        case .biometryNotEnrolled: return "Set up Face ID or Touch ID in Settings first."
        case .biometryNotAvailable: return "This device has no Face ID or Touch ID, or the app may not use it."
        case .biometryLockout: return "Biometrics are locked after too many attempts: unlock the device with its passcode."
        case .passcodeNotSet: return "Set a device passcode in Settings first."
        default: return "Biometrics cannot be used now (LAError \(error.code))."
        }
    }
}
#endif
