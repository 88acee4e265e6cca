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
/// - **Identity.** The item is service ``defaultService`` (`"SessionKit"`),
///   account `"session"`, in `accessGroup` (by default none named: the
///   process's default group). Nothing comes from `Bundle.main`, which in an
///   app extension names the extension: the app and every extension of it
///   ask for the same item (docs/PROTOCOL.md, "The Keychain item").
/// - **Earlier identities.** When the item is absent, `load` looks for one an
///   earlier version wrote: under the bundle-derived service
///   (`<bundle id>.sessionkit`), or without a group when one is named now. It
///   copies it to the current identity, reads the copy back, and only then
///   deletes the original, named with its exact group: a kill at any step
///   loses nothing.
/// - `save` updates the item, adds it if there is none (updating again if
///   another process added it meanwhile), then reads it back and compares. It
///   never overwrites a record of a newer format (another app sharing the
///   group on a newer SDK): that is ``SessionStoreError/unsupportedVersion(_:)``.
/// - `load` believes "no item" only when protected data is available: before
///   the first unlock after a restart (a prewarmed launch) the keychain says
///   `errSecItemNotFound` or `errSecInteractionNotAllowed` for an item that is
///   there. It then waits a while for the person to unlock and reads again,
///   or throws ``SessionStoreError/deviceLocked(_:)``, never `nil`.
/// - A keychain that refuses the app (`errSecMissingEntitlement`: no
///   entitlement, or a group the target lacks; `errSecDecode`: a damaged item)
///   is ``SessionStoreError/inaccessible(_:)``, naming the cause and the fix;
///   the item is left where it is.
/// - The format version is read before the record is decoded: a newer one is
///   left untouched. An item that cannot be decoded is copied to the account
///   `<account>.corrupt-<id>`, deleted, and reported as
///   ``SessionStoreError/corrupt(detail:movedTo:)``.
/// - Accessibility defaults to `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`:
///   readable while locked again (background refreshes work), and never
///   restored from a backup onto another device, where it would share a
///   refresh-token family with this one. With a class that moves
///   (`.afterFirstUnlock`), each record carries this device's marker, kept in a
///   `ThisDeviceOnly` item; a record restored onto another device loads
///   there as signed out and is never presented (docs/PROTOCOL.md, "A device
///   restored from a backup").
///
/// ## App extensions
///
/// An app and its extensions (widgets, share and notification extensions)
/// share the session through a keychain access group listed in each target's
/// Keychain Sharing entitlement, such as `"TEAMID.com.example.shared"`. On
/// macOS this needs the data-protection keychain, which the store uses by default.
///
/// Clients of one process on the same item take turns by themselves (a lock
/// of this process). The keychain has no lock across processes. Give `lockDirectory`, a folder
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
/// keychain and protected-data source itself, with the same group:
/// `KeychainSessionStore(keychain: keychain, accessGroup: "TEAMID.com.example.shared", protectedData: KeychainProbeProtectedData(keychain: keychain, accessGroup: "TEAMID.com.example.shared"), ...)`
/// with `let keychain = SecItemKeychain()`: the probe asks the keychain whether the device was unlocked.
public struct KeychainSessionStore: SessionStore {
    /// The service every process of an app uses unless told otherwise.
    public static let defaultService = "SessionKit"

    /// The item holding the record.
    public let item: KeychainItem
    /// Services earlier versions may have written the record under; searched when the item is absent.
    public let previousServices: [String]
    /// Where the cross-process refresh lock lives (an app group folder), if anywhere.
    public let lockDirectory: URL?
    /// How long `load` waits for protected data before it reports the device locked.
    public let protectedDataWait: Duration
    /// Opt-in: where this install marks that it has run, so a session a deleted
    /// install left in the keychain is forgotten at the first load (docs/PROTOCOL.md, "The Keychain item", has the trade-off).
    public let installMarker: (any InstallMarker)?
    /// Told after every save and clear, so the other processes sharing the item re-read it
    /// (a Darwin notification on Apple platforms; docs/PROTOCOL.md, "Hearing other processes").
    public var changeNotifier: (any StoreChangeNotifier)?
    /// The biometric gate, when the record sits behind Face ID or Touch ID (docs/PROTOCOL.md, "The biometric gate").
    public internal(set) var biometricGate: BiometricGate?

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
    ///   - service: the keychain service (default ``defaultService``, the same in the app and its extensions).
    ///   - account: the item's account name.
    ///   - accessGroup: a keychain access group shared with app extensions; `nil` for the process's default group.
    ///   - accessibility: when the item can be read (default: after first unlock, this device only).
    ///   - usesDataProtectionKeychain: on macOS, use the data-protection keychain (default), where access groups work.
    ///   - previousServices: services earlier versions wrote the record under; `nil` for SessionKit's own
    ///     earlier default (`<bundle id>.sessionkit`, for the app and, in an extension, its containing app).
    ///   - lockDirectory: a folder every process sharing the item can reach, for the refresh lock.
    ///   - protectedData: whether protected data is readable yet.
    ///   - protectedDataWait: how long `load` waits for the device to be unlocked.
    ///   - installMarker: opt-in (default off): forget a session a deleted install left;
    ///     docs/PROTOCOL.md, "The Keychain item", has the trade-off.
    public init(
        keychain: any KeychainAPI, service: String = KeychainSessionStore.defaultService, account: String = "session",
        accessGroup: String? = nil, accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
        usesDataProtectionKeychain: Bool = true, previousServices: [String]? = nil, lockDirectory: URL? = nil,
        protectedData: any ProtectedDataAvailability, protectedDataWait: Duration = .seconds(10),
        installMarker: (any InstallMarker)? = nil
    ) {
        self.item = KeychainItem(
            service: service, account: account, accessGroup: accessGroup, accessibility: accessibility,
            usesDataProtectionKeychain: usesDataProtectionKeychain)
        self.previousServices = (previousServices ?? Self.bundleDerivedServices(Bundle.main)).filter { $0 != service }
        self.keychain = keychain
        self.lockDirectory = lockDirectory
        self.protectedData = protectedData
        self.protectedDataWait = protectedDataWait
        self.installMarker = installMarker
        #if canImport(Security)
        // The device's keychain is shared with the other processes of the group: they hear every write.
        if keychain is SecItemKeychain { changeNotifier = DarwinStoreChangeNotifier(name: DarwinStoreChangeNotifier.name(for: item)) }
        #endif
    }

    public func load() async throws(SessionStoreError) -> StoredSession? {
        if let installMarker, !installMarker.isMarked() { try await forgetDeletedInstallSession() }
        biometricGate?.beginRead()
        var found = try await readItem()
        if found == nil { try refuseInvalidatedRecord() }
        if found == nil { found = try await moveEarlierItem() }
        guard let data = found else { return nil }
        // The version before the full decode: a newer SDK's record may not decode as ours.
        if let version = StoredSession.formatVersion(of: data), version > StoredSession.currentVersion {
            throw .unsupportedVersion(version)  // left in place: the newer app still needs it
        }
        let record: StoredSession
        do {
            record = try WireCoding.decoder().decode(StoredSession.self, from: data)
        } catch {
            throw .corrupt(detail: Self.describe(error), movedTo: try moveAside(data))
        }
        // No token at all is a record without a session (an OAuth sign-in in
        // progress, or a sign-out's sequence); one token alone is damage.
        let noSession = record.accessToken.isEmpty && record.refreshToken.isEmpty
        if !noSession, record.refreshToken.isEmpty || record.accessToken.isEmpty {
            throw .corrupt(detail: "a token is empty", movedTo: try moveAside(data))
        }
        return try await presentable(record)
    }

    public func save(_ session: StoredSession) async throws(SessionStoreError) {
        let marked = try await markedForThisDevice(session)
        let data: Data
        do {
            data = try WireCoding.encoder().encode(marked)
        } catch {
            throw .writeFailed("encoding: \(error)")
        }
        try refuseNewerRecord()
        if try !replaceInvalidatedRecord(data) { try await write(data) }
        try verify(data)
        changeNotifier?.post()
    }

    public func clear() async throws(SessionStoreError) {
        try refuseNewerRecord()
        let status = keychain.delete(item)
        switch status {
        case .success:
            break
        case .itemNotFound:
            // Nothing to delete, unless the item is only hidden until the first unlock.
            guard await protectedData.isAvailable else {
                throw .deviceLocked("the keychain cannot be searched before the first unlock (\(status))")
            }
        case .interactionNotAllowed:
            throw .deviceLocked("deleting: \(status)")
        default:
            throw Self.inaccessible(status, item) ?? .deleteFailed("keychain: \(status)")
        }
        changeNotifier?.post()
        // A copy an interrupted move left under an earlier identity must not come back after a sign-out.
        try deleteEarlierItems()
    }

    /// The item's identity, naming this store's lock among the clients of this process.
    var processLockKey: String {
        "keychain \(keychain.processLockNamespace) \(accessGroup ?? "(default group)") \(service) \(account)"
    }

    public func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        try await lockForRefresh(waitingAtMost: .infinity)
    }

    public func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
        // Without a shared folder there is no lock across processes, but clients of this process still take turns.
        guard let lockDirectory else { return try await ProcessLock.acquire(processLockKey, timeout: seconds) }
        do {
            try FileManager.default.createDirectory(at: lockDirectory, withIntermediateDirectories: true)
        } catch {
            throw .lockFailed("creating \(lockDirectory.path): \(error)")
        }
        return try await FileLock.acquire(path: lockDirectory.appendingPathComponent("session.lock").path, timeout: seconds)
    }
}
