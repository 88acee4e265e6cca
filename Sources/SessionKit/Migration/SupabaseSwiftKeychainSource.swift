import Foundation

/// The session supabase-swift's `Auth` kept in the Keychain, as a
/// ``LegacyKeyValueSource`` whose keys are its storage keys (the items' accounts).
///
/// supabase-swift's `KeychainLocalStorage` writes one generic-password item
/// per storage key: the account is the key, the service is the app's bundle
/// identifier (from its version 3) or `"supabase.gotrue.swift"` (before, and
/// for a process without a bundle identifier), in the access group the app
/// passed, on macOS in the file-based keychain unless the app asked for the
/// data-protection one. This source reads the key at every one of those
/// services, newest first, and removes it from all of them. The value is read
/// as it was written; ``LegacySession`` reads every encoding supabase-swift
/// has used (see ``SupabaseSwiftMigration``).
///
/// Every Keychain call goes through ``KeychainAPI`` (`SecItemKeychain` in an
/// app), so the decisions here are tested against a fake keychain.
public struct SupabaseSwiftKeychainSource: LegacyKeyValueSource {
    /// The service supabase-swift used before its version 3, and still uses without a bundle identifier.
    public static let legacyService = "supabase.gotrue.swift"

    /// The keychain the items are read from.
    public let keychain: any KeychainAPI
    /// The services to look in, in order: the newest first.
    public let services: [String]
    /// The access group supabase-swift was given (`KeychainLocalStorage(accessGroup:)`), if any.
    public let accessGroup: String?
    /// macOS: whether supabase-swift was told to use the data-protection keychain (its default is not to).
    public let usesDataProtectionKeychain: Bool
    /// When given, asked before a read: a locked device's "no such item" is not believed.
    public let protectedData: (any ProtectedDataAvailability)?

    /// - Parameters:
    ///   - keychain: the device's keychain (`SecItemKeychain()`).
    ///   - bundleIdentifier: the app's bundle identifier (`Bundle.main.bundleIdentifier`), the service
    ///     supabase-swift 3 and later use; ``legacyService`` is always looked in after it.
    ///   - services: other services, when the app passed its own to `KeychainLocalStorage(service:)`.
    ///   - accessGroup: the access group the app gave supabase-swift.
    ///   - usesDataProtectionKeychain: macOS only; `true` if the app passed `useDataProtectionKeychain: true`.
    ///   - protectedData: whether the device has been unlocked (``KeychainProbeProtectedData`` in an app).
    public init(
        keychain: any KeychainAPI, bundleIdentifier: String?, services: [String] = [], accessGroup: String? = nil,
        usesDataProtectionKeychain: Bool = false, protectedData: (any ProtectedDataAvailability)? = nil
    ) {
        var ordered: [String] = []
        for service in services + [bundleIdentifier, Self.legacyService].compactMap({ $0 })
        where !service.isEmpty && !ordered.contains(service) {
            ordered.append(service)
        }
        self.keychain = keychain
        self.services = ordered
        self.accessGroup = accessGroup
        self.usesDataProtectionKeychain = usesDataProtectionKeychain
        self.protectedData = protectedData
    }

    /// The item supabase-swift wrote `key` to under `service`.
    func item(service: String, key: String) -> KeychainItem {
        KeychainItem(
            service: service, account: key, accessGroup: accessGroup, accessibility: .afterFirstUnlock,
            usesDataProtectionKeychain: usesDataProtectionKeychain)
    }

    public func readValue(forKey key: String) async throws(SessionError) -> Data? {
        if let protectedData, await !protectedData.isAvailable {
            throw SessionError.storeUnavailable.with(underlying: "the device has not been unlocked since it restarted")
        }
        for service in services {
            let (status, data) = keychain.copyData(item(service: service, key: key))
            switch status {
            case .success:
                // An item with no data is a value that cannot be read: never "nothing there".
                return data ?? Data()
            case .itemNotFound:
                continue
            default:
                // Locked, refused, damaged: unreadable now, not absent; the migration keeps it.
                throw SessionError.storeUnavailable.with(
                    underlying: "supabase-swift's keychain item \(service)/\(key) could not be read: \(status)")
            }
        }
        return nil
    }

    /// Answers as ``readValue(forKey:)`` without the protected-data check; an unreadable item is empty bytes.
    public func data(forKey key: String) -> Data? {
        for service in services {
            let (status, data) = keychain.copyData(item(service: service, key: key))
            if status == .itemNotFound { continue }
            return status == .success ? data ?? Data() : Data()
        }
        return nil
    }

    /// Deletes `key` at every service: supabase-swift may have left a copy at an older one.
    public func removeValue(forKey key: String) {
        for service in services {
            // A failed delete leaves the item; the next run finds the store holding the
            // session (or its sign-out) and removes it then, never importing it again.
            _ = keychain.delete(item(service: service, key: key))
        }
    }
}
