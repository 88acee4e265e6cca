#if canImport(Security)
import Foundation

extension KeychainSessionStore {
    /// Creates a store on this device's keychain (``SecItemKeychain``) that
    /// follows the protected-data state UIKit or AppKit reports (not on watchOS).
    ///
    /// - Parameters:
    ///   - service: the keychain service (default ``defaultService``, the same in the app and its extensions).
    ///   - account: the item's account name.
    ///   - accessGroup: a keychain access group shared with app extensions; `nil` for the app's default group.
    ///   - accessibility: when the item can be read (default: after first unlock, this device only).
    ///   - usesDataProtectionKeychain: on macOS, use the data-protection keychain (default), where access groups work.
    ///   - previousServices: services earlier versions wrote the record under; `nil` for SessionKit's
    ///     earlier default, `<bundle id>.sessionkit`. Found records are moved to the current item.
    ///   - lockDirectory: a folder every process sharing the item can reach (an app group folder), for the refresh lock.
    ///   - protectedDataWait: how long `load` waits for the device to be unlocked.
    ///   - installMarker: opt-in (default off): forget a session a deleted install left in the keychain,
    ///     such as `UserDefaultsInstallMarker()`; docs/PROTOCOL.md, "The Keychain item", has the trade-off.
    /// - Important: Unavailable in iOS, tvOS and visionOS app extensions, which
    ///   have no `UIApplication`: they pass `keychain: SecItemKeychain()` and
    ///   `protectedData: KeychainProbeProtectedData(keychain:accessGroup:)` to the designated initialiser.
    @available(iOSApplicationExtension, unavailable)
    @available(tvOSApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    public init(
        service: String = KeychainSessionStore.defaultService, account: String = "session", accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, usesDataProtectionKeychain: Bool = true,
        previousServices: [String]? = nil, lockDirectory: URL? = nil, protectedDataWait: Duration = .seconds(10),
        installMarker: (any InstallMarker)? = nil
    ) {
        #if canImport(UIKit) && !os(watchOS)
        let protectedData: any ProtectedDataAvailability = UIApplicationProtectedData()
        #elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
        // macOS 12 and later report it as iOS does (NSApplication.isProtectedDataAvailable).
        let protectedData: any ProtectedDataAvailability = NSApplicationProtectedData()
        #else
        // watchOS has no UIApplication, hence no protected-data state an app can read.
        let protectedData: any ProtectedDataAvailability = AlwaysAvailableProtectedData()
        #endif
        self.init(
            keychain: SecItemKeychain(), service: service, account: account, accessGroup: accessGroup,
            accessibility: accessibility, usesDataProtectionKeychain: usesDataProtectionKeychain,
            previousServices: previousServices, lockDirectory: lockDirectory, protectedData: protectedData,
            protectedDataWait: protectedDataWait, installMarker: installMarker)
    }
}
#endif
