import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Telling a record restored from another device's backup from this device's
/// own (docs/PROTOCOL.md, "A device restored from a backup").
///
/// An item of a class without `ThisDeviceOnly` is restored from an encrypted
/// backup onto another device (the `kSecAttrAccessible` reference). The two
/// devices then hold one refresh-token family. Whichever refreshes second
/// presents a token the first already rotated, and reuse detection ends the
/// family on both (docs/PROTOCOL.md, "Reuse detection"). Only a device that
/// never presents the copy keeps both signed in.
///
/// So every record such a store writes carries this device's marker: a
/// random identifier in a `ThisDeviceOnly` item, which a backup leaves behind.
/// A record whose marker this device does not hold was written elsewhere and
/// is read as signed out, left untouched until this device signs in.
extension KeychainSessionStore {
    /// The service of the marker: one per access group, shared by every store on the device.
    public static let deviceMarkerService = "SessionKit.device"

    /// Where this store keeps the device's marker: beside the record, in its
    /// group, readable whenever the record is, and never restored elsewhere.
    public var deviceMarkerItem: KeychainItem {
        KeychainItem(
            service: Self.deviceMarkerService, account: "device", accessGroup: item.accessGroup,
            accessibility: .afterFirstUnlockThisDeviceOnly, usesDataProtectionKeychain: item.usesDataProtectionKeychain)
    }

    /// `record` with this device's marker, when the store's class lets records move.
    func markedForThisDevice(_ record: StoredSession) async throws(SessionStoreError) -> StoredSession {
        guard !item.accessibility.isThisDeviceOnly, record.holdsSession else { return record }
        var marked = record
        marked.deviceMarker = try await deviceMarker(creating: true)
        return marked
    }

    /// A loaded record as this device may present it: its own, or, for one
    /// written on another device, a signed-out record with its sequence.
    func presentable(_ record: StoredSession) async throws(SessionStoreError) -> StoredSession {
        guard let recorded = record.deviceMarker else { return record }  // nothing moves, or an older build wrote it
        var own = record
        own.deviceMarker = nil
        guard record.holdsSession else { return own }
        let marker = try await deviceMarker(creating: false)
        return marker == recorded ? own : .signedOut(sequence: record.sequence)
    }

    /// This device's marker, read robustly (a locked device is never "no
    /// marker"), and added to the store's group when `creating` and absent.
    private func deviceMarker(creating: Bool) async throws(SessionStoreError) -> String? {
        try await deviceMarkerData(creating: creating).map { String(decoding: $0, as: UTF8.self) }
    }

    private func deviceMarkerData(creating: Bool) async throws(SessionStoreError) -> Data? {
        let target = deviceMarkerItem
        if let data = try await readItem(target) { return data }
        // An update that added an access group: the marker may still be in the app's default group.
        var anyGroup = target
        anyGroup.accessGroup = nil
        let earlier = target.accessGroup == nil ? nil : try await readItem(anyGroup)
        guard creating else { return earlier }
        let data = earlier ?? Data(UUID().uuidString.utf8)
        let added = keychain.add(target, data: data)
        switch added {
        case .success:
            return data
        case .duplicateItem:
            // Another process (an extension) added it meanwhile: use theirs.
            guard let theirs = try await readItem(target) else { throw .writeFailed("the device marker vanished after a concurrent add") }
            return theirs
        default:
            throw writeFailure(added, "adding the device marker")
        }
    }
}
