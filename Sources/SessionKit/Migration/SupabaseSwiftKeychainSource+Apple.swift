#if canImport(Security)
import Foundation

extension SupabaseSwiftKeychainSource {
    /// supabase-swift's items on this device: the Security framework's keychain,
    /// the app's bundle identifier, and (but on macOS) a probe of whether the device has been unlocked.
    ///
    /// - Parameters:
    ///   - accessGroup: the access group the app gave `KeychainLocalStorage`, if any.
    ///   - usesDataProtectionKeychain: macOS only: `true` if the app passed `useDataProtectionKeychain: true`.
    public static func device(accessGroup: String? = nil, usesDataProtectionKeychain: Bool = false) -> Self {
        let keychain = SecItemKeychain()
        #if os(macOS)
        // A Mac has no "before the first unlock" for the login keychain, and the probe
        // (a data-protection item) would need an entitlement supabase-swift never asked for.
        let protectedData: (any ProtectedDataAvailability)? = nil
        #else
        let protectedData: (any ProtectedDataAvailability)? = KeychainProbeProtectedData(keychain: keychain, accessGroup: accessGroup)
        #endif
        return SupabaseSwiftKeychainSource(
            keychain: keychain, bundleIdentifier: Bundle.main.bundleIdentifier, accessGroup: accessGroup,
            usesDataProtectionKeychain: usesDataProtectionKeychain, protectedData: protectedData)
    }
}
#endif
