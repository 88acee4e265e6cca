import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The five keychain calls ``KeychainSessionStore`` needs, as `SecItem*` answers them.
///
/// The seam between the store's decisions, compiled and tested everywhere,
/// and the Security framework: `SecItemKeychain` on Apple platforms, an
/// in-memory fake (`InMemoryKeychain` in SessionKitTesting) in tests. Each call
/// returns the `OSStatus` the keychain gave, and an implementation answers as
/// the keychain does: `.duplicateItem` from `add` on an existing item,
/// `.itemNotFound` from the others on a missing one.
public protocol KeychainAPI: Sendable {
    /// `SecItemAdd`: creates `item` holding `data`.
    ///
    /// - Returns: `.success`, or `.duplicateItem` when the item already exists.
    func add(_ item: KeychainItem, data: Data) -> KeychainStatus

    /// `SecItemUpdate`: replaces the data of `item` and applies its accessibility.
    ///
    /// - Returns: `.success`, or `.itemNotFound` when there is no such item.
    func update(_ item: KeychainItem, data: Data) -> KeychainStatus

    /// `SecItemCopyMatching` with `kSecReturnData` and `kSecMatchLimitOne`: the data of `item`.
    ///
    /// - Returns: `.success` with the data, or a failing status and `nil`.
    func copyData(_ item: KeychainItem) -> (status: KeychainStatus, data: Data?)

    /// `SecItemCopyMatching` with `kSecReturnAttributes` and `kSecMatchLimitAll`:
    /// every item `item` matches, each with the access group it is really in.
    ///
    /// Without a group, `item` matches in every group the process holds; this
    /// is how an item written under an earlier identity is found, and then
    /// named exactly (with its group) to be deleted.
    ///
    /// - Returns: `.success` with the items, or a failing status (`.itemNotFound` for none) and `[]`.
    func findItems(_ item: KeychainItem) -> (status: KeychainStatus, items: [KeychainItem])

    /// `SecItemDelete`: deletes `item`.
    ///
    /// - Returns: `.success`, or `.itemNotFound` when there is no such item.
    func delete(_ item: KeychainItem) -> KeychainStatus

    /// Which keychain this is, for the lock clients of one process share on
    /// an item (``KeychainSessionStore`` without a lock folder): every
    /// `SecItemKeychain` reaches the one keychain of the device; a fake names its own.
    var processLockNamespace: String { get }
}

extension KeychainAPI {
    public var processLockNamespace: String { "device" }
}
