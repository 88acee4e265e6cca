import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Protected data as the keychain itself reports it, for app extensions,
/// which have no `UIApplication` to ask.
///
/// An extension can run before the first unlock (a notification service
/// extension, a widget reloaded after a restart), and iOS 15 and later may
/// then answer `errSecItemNotFound` for an item that exists
/// (firebase-ios-sdk PR 16505). ``AlwaysAvailableProtectedData`` would take
/// that for "no session". This asks instead: it adds a small probe item of
/// the session item's accessibility class, which the keychain refuses with
/// `errSecInteractionNotAllowed` while that class is out of reach, and deletes it again.
///
/// It cannot wait for the unlock (there is no notification to follow): a
/// wait answers at once, and the client reads again later by itself.
public struct KeychainProbeProtectedData: ProtectedDataAvailability {
    /// The probe's service; its account is `"probe"`.
    public static let probeService = "SessionKit.protected-data-probe"

    let keychain: any KeychainAPI
    let probe: KeychainItem

    /// - Parameters:
    ///   - keychain: the keychain the store uses (`SecItemKeychain()`).
    ///   - accessibility: the store's accessibility class: the probe is out of reach exactly when the session is.
    ///   - accessGroup: the store's access group, so the probe needs no other entitlement.
    public init(
        keychain: any KeychainAPI, accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
        accessGroup: String? = nil
    ) {
        self.keychain = keychain
        self.probe = KeychainItem(
            service: Self.probeService, account: "probe", accessGroup: accessGroup, accessibility: accessibility)
    }

    public var isAvailable: Bool {
        get async { probeOnce(retryingDuplicate: true) }
    }

    private func probeOnce(retryingDuplicate: Bool) -> Bool {
        switch keychain.add(probe, data: Data([1])) {
        case .interactionNotAllowed:
            return false
        case .success:
            // Leave nothing behind; a probe a kill leaves here is found as a duplicate next time.
            _ = keychain.delete(probe)
            return true
        case .duplicateItem where retryingDuplicate:
            // A probe another process (or a kill) left: remove it and ask again.
            _ = keychain.delete(probe)
            return probeOnce(retryingDuplicate: false)
        default:
            // Anything else (-34018, …) is no lock matter: the store's own call reports it.
            return true
        }
    }

    public func waitUntilAvailable(timeout: Duration) async -> Bool {
        await isAvailable
    }
}
