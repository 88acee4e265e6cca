import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// The session record as one generic-password keychain item.
///
/// The record is the same JSON as ``FileSessionStore`` writes. Every keychain
/// call goes through ``KeychainAPI``: `SecItemKeychain` on Apple platforms,
/// an in-memory fake in tests, so all of the logic here runs on Linux too.
///
/// - `save` updates the item, adds it if there is none (updating again if
///   another process added it meanwhile), then reads it back and compares.
/// - `load` believes "no item" only when protected data is available: before
///   the first unlock after a restart (a prewarmed launch) the keychain says
///   `errSecItemNotFound` or `errSecInteractionNotAllowed` for an item that is
///   there. It then waits a while for the person to unlock and reads again,
///   or throws ``SessionStoreError/deviceLocked(_:)``, never `nil`: the
///   client's `restore()` stays `.restoring` and can be called again.
/// - An item that cannot be decoded is copied to the account
///   `<account>.corrupt-<id>`, deleted, and reported as
///   ``SessionStoreError/corrupt(detail:movedTo:)``.
/// - Accessibility defaults to `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`:
///   readable while locked again (background refreshes work), and never
///   restored from a backup onto another device, where it would share a
///   refresh-token family with this one.
///
/// ## App extensions
///
/// An app and its extensions (widgets, share and notification extensions)
/// share the session through a keychain access group listed in each target's
/// Keychain Sharing entitlement, such as `"TEAMID.com.example.shared"`. On
/// macOS this needs the data-protection keychain, which the store uses by default.
///
/// The keychain has no lock across processes. Give `lockDirectory`, a folder
/// in the app group container every target shares
/// (`FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)`),
/// so the app and its extensions refresh one at a time; without it they rely
/// on the server's reuse grace and adoption.
///
/// ```swift
/// let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example")!
/// let store = KeychainSessionStore(
///     accessGroup: "TEAMID.com.example.shared",
///     lockDirectory: group.appendingPathComponent("SessionKit"))
/// ```
///
/// `UIApplication` does not exist in extensions, so an extension passes its
/// keychain and protected-data source itself:
/// `KeychainSessionStore(keychain: SecItemKeychain(), protectedData: AlwaysAvailableProtectedData(), ...)`.
public struct KeychainSessionStore: SessionStore {
    /// The item holding the record.
    public let item: KeychainItem
    /// Where the cross-process refresh lock lives (an app group folder), if anywhere.
    public let lockDirectory: URL?
    /// How long `load` waits for protected data before it reports the device locked.
    public let protectedDataWait: Duration

    let keychain: any KeychainAPI
    let protectedData: any ProtectedDataAvailability

    /// The keychain service.
    public var service: String { item.service }
    /// The item's account name.
    public var account: String { item.account }
    /// The access group shared with app extensions, if any.
    public var accessGroup: String? { item.accessGroup }
    /// When the item can be read.
    public var accessibility: KeychainAccessibility { item.accessibility }

    /// Creates a store on any keychain: the designated initialiser, for tests,
    /// app extensions, and platforms without the Security framework.
    ///
    /// - Parameters:
    ///   - keychain: the keychain calls, `SecItemKeychain` on Apple platforms.
    ///   - service: the keychain service (default: the app's bundle id + ".sessionkit").
    ///   - account: the item's account name.
    ///   - accessGroup: a keychain access group shared with app extensions.
    ///   - accessibility: when the item can be read (default: after first unlock, this device only).
    ///   - usesDataProtectionKeychain: on macOS, use the data-protection keychain (default), where access groups work.
    ///   - lockDirectory: a folder every process sharing the item can reach, for the refresh lock.
    ///   - protectedData: whether protected data is readable yet.
    ///   - protectedDataWait: how long `load` waits for the device to be unlocked.
    public init(
        keychain: any KeychainAPI, service: String? = nil, account: String = "session", accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, usesDataProtectionKeychain: Bool = true,
        lockDirectory: URL? = nil, protectedData: any ProtectedDataAvailability,
        protectedDataWait: Duration = .seconds(10)
    ) {
        self.item = KeychainItem(
            service: service ?? ((Bundle.main.bundleIdentifier ?? "SessionKit") + ".sessionkit"), account: account,
            accessGroup: accessGroup, accessibility: accessibility,
            usesDataProtectionKeychain: usesDataProtectionKeychain)
        self.keychain = keychain
        self.lockDirectory = lockDirectory
        self.protectedData = protectedData
        self.protectedDataWait = protectedDataWait
    }

    public func load() async throws(SessionStoreError) -> StoredSession? {
        guard let data = try await readItem() else { return nil }
        let record: StoredSession
        do {
            record = try WireCoding.decoder().decode(StoredSession.self, from: data)
        } catch {
            throw .corrupt(detail: Self.describe(error), movedTo: try moveAside(data))
        }
        if record.version > StoredSession.currentVersion {
            // Written by a newer app: leave it alone rather than lose it.
            throw .unsupportedVersion(record.version)
        }
        // No token at all is a record without a session (an OAuth sign-in in
        // progress, or a sign-out's sequence); one token alone is damage.
        let noSession = record.accessToken.isEmpty && record.refreshToken.isEmpty
        if !noSession, record.refreshToken.isEmpty || record.accessToken.isEmpty {
            throw .corrupt(detail: "a token is empty", movedTo: try moveAside(data))
        }
        return record
    }

    public func save(_ session: StoredSession) async throws(SessionStoreError) {
        let data: Data
        do {
            data = try WireCoding.encoder().encode(session)
        } catch {
            throw .writeFailed("encoding: \(error)")
        }
        try await write(data)
        try verify(data)
    }

    public func clear() async throws(SessionStoreError) {
        let status = keychain.delete(item)
        switch status {
        case .success:
            return
        case .itemNotFound:
            // Nothing to delete, unless the item is only hidden until the first unlock.
            if await protectedData.isAvailable { return }
            throw .deviceLocked("the keychain cannot be searched before the first unlock (\(status))")
        case .interactionNotAllowed:
            throw .deviceLocked("deleting: \(status)")
        default:
            throw .deleteFailed("keychain: \(status)")
        }
    }

    public func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        try await lockForRefresh(waitingAtMost: .infinity)
    }

    public func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
        guard let lockDirectory else { return NoCrossProcessLock() }
        do {
            try FileManager.default.createDirectory(at: lockDirectory, withIntermediateDirectories: true)
        } catch {
            throw .lockFailed("creating \(lockDirectory.path): \(error)")
        }
        return try await FileLock.acquire(path: lockDirectory.appendingPathComponent("session.lock").path, timeout: seconds)
    }
}
