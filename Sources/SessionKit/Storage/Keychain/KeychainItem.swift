/// One generic-password keychain item, described without the Security framework.
///
/// `service`, `account` and `accessGroup` name the item: two items with the
/// same three are the same item. `accessibility` is applied whenever the item
/// is written and is never used to find it, so an item written with another
/// class (by an older version) is still found and moved to this one.
public struct KeychainItem: Sendable, Hashable, CustomStringConvertible {
    /// `kSecAttrService`.
    public var service: String
    /// `kSecAttrAccount`.
    public var account: String
    /// `kSecAttrAccessGroup`: a group shared with app extensions; `nil` for the app's default group.
    public var accessGroup: String?
    /// `kSecAttrAccessible`, applied on every write.
    public var accessibility: KeychainAccessibility
    /// macOS (and Mac Catalyst): `kSecUseDataProtectionKeychain`, the iOS-style
    /// keychain where access groups work, rather than the file-based login
    /// keychain. Other platforms have only that keychain and ignore this.
    public var usesDataProtectionKeychain: Bool

    /// - Parameters:
    ///   - service: the item's service.
    ///   - account: the item's account name.
    ///   - accessGroup: an access group shared with app extensions.
    ///   - accessibility: when the item can be read; by default after the first unlock, on this device only.
    ///   - usesDataProtectionKeychain: on macOS, use the data-protection keychain (the default).
    public init(
        service: String, account: String, accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, usesDataProtectionKeychain: Bool = true
    ) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.usesDataProtectionKeychain = usesDataProtectionKeychain
    }

    /// The same item under another account name, as a corrupt record is kept aside.
    public func renamed(to account: String) -> KeychainItem {
        var item = self
        item.account = account
        return item
    }

    public var description: String {
        "keychain item \(service)/\(account)" + (accessGroup.map { " in \($0)" } ?? "")
    }
}
