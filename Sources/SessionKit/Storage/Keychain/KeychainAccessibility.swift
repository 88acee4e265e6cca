/// When a keychain item can be read: the `kSecAttrAccessible…` classes, without the Security framework.
///
/// The `ThisDeviceOnly` classes are never restored from a backup onto another
/// device, so a restored phone cannot hold the same refresh-token family as the
/// old one. The `AfterFirstUnlock` classes stay readable while the device is
/// locked again, so background refreshes work; `WhenUnlocked` ones do not.
public struct KeychainAccessibility: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        case whenUnlocked, whenUnlockedThisDeviceOnly, afterFirstUnlock, afterFirstUnlockThisDeviceOnly
        case whenPasscodeSetThisDeviceOnly
    }

    let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: the default.
    public static let afterFirstUnlockThisDeviceOnly = Self(.afterFirstUnlockThisDeviceOnly)
    /// `kSecAttrAccessibleAfterFirstUnlock`: also restored from encrypted backups onto other devices.
    public static let afterFirstUnlock = Self(.afterFirstUnlock)
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`: unreadable whenever the device is locked.
    public static let whenUnlockedThisDeviceOnly = Self(.whenUnlockedThisDeviceOnly)
    /// `kSecAttrAccessibleWhenUnlocked`: unreadable whenever the device is locked.
    public static let whenUnlocked = Self(.whenUnlocked)
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`: only on a device with a passcode; deleted if it is removed.
    public static let whenPasscodeSetThisDeviceOnly = Self(.whenPasscodeSetThisDeviceOnly)

    /// Never restored from a backup onto another device (the `ThisDeviceOnly` classes).
    public var isThisDeviceOnly: Bool {
        switch kind {
        case .afterFirstUnlockThisDeviceOnly, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: true
        case .afterFirstUnlock, .whenUnlocked: false
        }
    }

    /// Readable while the device is locked again after its first unlock (the `AfterFirstUnlock` classes).
    public var isReadableWhileLocked: Bool {
        kind == .afterFirstUnlock || kind == .afterFirstUnlockThisDeviceOnly
    }

    /// The Security framework constant's name.
    public var description: String {
        switch kind {
        case .whenUnlocked: "kSecAttrAccessibleWhenUnlocked"
        case .whenUnlockedThisDeviceOnly: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"
        case .afterFirstUnlock: "kSecAttrAccessibleAfterFirstUnlock"
        case .afterFirstUnlockThisDeviceOnly: "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
        case .whenPasscodeSetThisDeviceOnly: "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"
        }
    }
}
