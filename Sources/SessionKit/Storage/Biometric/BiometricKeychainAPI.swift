import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One authentication context: an `LAContext` on Apple platforms, a simulated one in tests.
///
/// Passed to the keychain as `kSecUseAuthenticationContext`: a context that passed
/// a check lets later calls through without asking again.
public protocol KeychainAuthenticationContext: AnyObject, Sendable {
    /// `LAContext.invalidate()`: the context can no longer open anything.
    func invalidate()
}

/// The keychain calls for an item behind access control (`kSecAttrAccessControl`):
/// the seam between ``BiometricGate``'s decisions, tested on Linux, and the
/// Security and LocalAuthentication frameworks (`SecItemKeychain` on Apple platforms,
/// `SimulatedBiometricKeychain` in SessionKitTesting).
///
/// `delete` and `findItems` need no check (Apple asks only to use an item's data),
/// so they stay ``KeychainAPI``'s.
public protocol BiometricKeychainAPI: KeychainAPI {
    /// A new context. Without interaction (`LAContext.interactionNotAllowed`) a call
    /// that would ask answers `errSecInteractionNotAllowed` instead of presenting UI.
    ///
    /// - Parameters:
    ///   - allowsInteraction: whether the system sheet may be shown.
    ///   - deviceUnlockReuse: `touchIDAuthenticationAllowableReuseDuration`.
    ///   - localizedReason: what the sheet says.
    func makeAuthenticationContext(
        allowsInteraction: Bool, deviceUnlockReuse: TimeInterval, localizedReason: String
    ) -> any KeychainAuthenticationContext

    /// `SecItemAdd` with `kSecAttrAccessControl` built from `protection` (adding never asks).
    func add(_ item: KeychainItem, data: Data, protection: BiometricProtection, context: any KeychainAuthenticationContext) -> KeychainStatus

    /// `SecItemUpdate` of a protected item, with `kSecUseAuthenticationContext`: asks unless `context` passed a check.
    func update(_ item: KeychainItem, data: Data, protection: BiometricProtection, context: any KeychainAuthenticationContext) -> KeychainStatus

    /// `SecItemCopyMatching` with `kSecUseAuthenticationContext`: asks unless `context` passed a check.
    ///
    /// - Returns: `.success` with the data; `.userCanceled` (-128), `.authFailed` (-25293),
    ///   `.interactionNotAllowed` (-25308) when it would have to ask without UI, or
    ///   `.itemNotFound` for an item a biometry change invalidated.
    func copyData(_ item: KeychainItem, context: any KeychainAuthenticationContext) -> (status: KeychainStatus, data: Data?)
}
