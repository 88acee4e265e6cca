#if canImport(Security)
import Foundation
import Security

/// The Security framework's keychain: one `SecItem*` call per method.
///
/// Only builds the query dictionaries and passes the `OSStatus` on; every
/// decision lives in ``KeychainSessionStore``, which is tested through
/// ``KeychainAPI``. Items are generic passwords (`kSecClassGenericPassword`),
/// never synchronised through iCloud.
public struct SecItemKeychain: KeychainAPI {
    public init() {}

    public func add(_ item: KeychainItem, data: Data) -> KeychainStatus {
        var attributes = Self.query(for: item)
        attributes[kSecValueData as String] = data
        attributes[kSecAttrAccessible as String] = Self.accessible(item.accessibility)
        return KeychainStatus(rawValue: SecItemAdd(attributes as CFDictionary, nil))
    }

    public func update(_ item: KeychainItem, data: Data) -> KeychainStatus {
        // Accessibility is written here, not matched on: an item saved with another class is moved to this one.
        let changes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: Self.accessible(item.accessibility),
        ]
        return KeychainStatus(rawValue: SecItemUpdate(Self.query(for: item) as CFDictionary, changes as CFDictionary))
    }

    public func copyData(_ item: KeychainItem) -> (status: KeychainStatus, data: Data?) {
        var query = Self.query(for: item)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (KeychainStatus(rawValue: status), result as? Data)
    }

    public func findItems(_ item: KeychainItem) -> (status: KeychainStatus, items: [KeychainItem]) {
        var query = Self.query(for: item)
        // Attributes only (no data): kSecReturnData with kSecMatchLimitAll is refused by some keychains.
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = KeychainStatus(rawValue: SecItemCopyMatching(query as CFDictionary, &result))
        guard status == .success else { return (status, []) }
        // kSecMatchLimitAll with kSecReturnAttributes answers a CFArray of CFDictionary.
        guard let rows = result as? [[String: Any]] else { return (.success, []) }
        let found = rows.map { row in
            var match = item
            match.accessGroup = row[kSecAttrAccessGroup as String] as? String
            if let accessible = row[kSecAttrAccessible as String] as? String {
                match.accessibility = Self.accessibility(accessible) ?? item.accessibility
            }
            return match
        }
        return (.success, found)
    }

    public func delete(_ item: KeychainItem) -> KeychainStatus {
        KeychainStatus(rawValue: SecItemDelete(Self.query(for: item) as CFDictionary))
    }

    /// The attributes that name the item, and nothing that would narrow the search.
    static func query(for item: KeychainItem) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: item.service,
            kSecAttrAccount as String: item.account,
        ]
        if let accessGroup = item.accessGroup {
            query[kSecAttrAccessGroup as String] = accessGroup
        }
        #if os(macOS) || targetEnvironment(macCatalyst)
        // Without it SecItem on macOS targets the file-based login keychain, where access groups
        // and accessibility do not apply. Mac Catalyst runs on macOS too: Apple documents the key
        // as safe on every platform, so it is set there rather than relying on the default.
        // iOS, tvOS, watchOS and visionOS have only the data-protection keychain.
        if item.usesDataProtectionKeychain {
            query[kSecUseDataProtectionKeychain as String] = true
        }
        #endif
        return query
    }

    /// The class named by a `kSecAttrAccessible` value read back from the keychain.
    static func accessibility(_ value: String) -> KeychainAccessibility? {
        let all: [KeychainAccessibility] = [
            .whenUnlocked, .whenUnlockedThisDeviceOnly, .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly,
            .whenPasscodeSetThisDeviceOnly,
        ]
        return all.first { (accessible($0) as String) == value }
    }

    static func accessible(_ accessibility: KeychainAccessibility) -> CFString {
        switch accessibility.kind {
        case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }
}
#endif
