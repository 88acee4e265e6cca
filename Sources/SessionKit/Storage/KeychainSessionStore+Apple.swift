#if canImport(Security)
import Foundation

extension KeychainSessionStore {
    /// Creates a store on this device's keychain (``SecItemKeychain``) that
    /// follows UIKit's protected-data state where there is one.
    ///
    /// - Parameters:
    ///   - service: the keychain service (default: the app's bundle id + ".sessionkit").
    ///   - account: the item's account name.
    ///   - accessGroup: a keychain access group shared with app extensions.
    ///   - accessibility: when the item can be read (default: after first unlock, this device only).
    ///   - usesDataProtectionKeychain: on macOS, use the data-protection keychain (default), where access groups work.
    ///   - lockDirectory: a folder every process sharing the item can reach (an app group folder), for the refresh lock.
    ///   - protectedDataWait: how long `load` waits for the device to be unlocked.
    /// - Important: Unavailable in iOS, tvOS and visionOS app extensions, which
    ///   have no `UIApplication`: they pass `keychain: SecItemKeychain()` and
    ///   `protectedData: AlwaysAvailableProtectedData()` to the designated initialiser.
    @available(iOSApplicationExtension, unavailable)
    @available(tvOSApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    public init(
        service: String? = nil, account: String = "session", accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, usesDataProtectionKeychain: Bool = true,
        lockDirectory: URL? = nil, protectedDataWait: Duration = .seconds(10)
    ) {
        #if canImport(UIKit) && !os(watchOS)
        let protectedData: any ProtectedDataAvailability = UIApplicationProtectedData()
        #else
        // macOS and watchOS have no protected-data state an app can read.
        let protectedData: any ProtectedDataAvailability = AlwaysAvailableProtectedData()
        #endif
        self.init(
            keychain: SecItemKeychain(), service: service, account: account, accessGroup: accessGroup,
            accessibility: accessibility, usesDataProtectionKeychain: usesDataProtectionKeychain,
            lockDirectory: lockDirectory, protectedData: protectedData, protectedDataWait: protectedDataWait)
    }
}
#endif
