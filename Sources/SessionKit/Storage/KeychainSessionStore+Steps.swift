import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension KeychainSessionStore {
    /// Reads the item's data; `nil` only when the keychain says there is none
    /// *and* protected data is available, so a locked device is never "no session".
    func readItem() async throws(SessionStoreError) -> Data? {
        try await readItem(item)
    }

    /// Reads `target` as ``readItem()`` reads the record.
    func readItem(_ target: KeychainItem) async throws(SessionStoreError) -> Data? {
        var waited = false
        while true {
            let (status, data) = keychain.copyData(target)
            if let refused = gatedRefusal(status) { throw refused }
            switch status {
            case .success:
                guard let data else { throw .readFailed("the keychain returned no data (\(status))") }
                return data
            case .itemNotFound:
                // Absent only if the keychain could see everything; else a prewarmed launch before first unlock.
                // Protected data may have become available since the read (the person unlocked in
                // between): the answer may still be the locked keychain's, so one more read decides.
                if await protectedData.isAvailable { return try confirmAbsent(target) }
            case .interactionNotAllowed:
                // Locked: before the first unlock, or a when-unlocked item on a locked device.
                break
            default:
                throw Self.inaccessible(status, target) ?? .readFailed("keychain: \(status)")
            }
            // Wait once for the person to unlock, then read again; the client retries after that.
            guard !waited else { throw Self.locked(status) }
            guard await protectedData.waitUntilAvailable(timeout: protectedDataWait) else { throw Self.locked(status) }
            waited = true
        }
    }

    /// A second read, with protected data available: the item's data, or `nil` if it is really absent.
    private func confirmAbsent(_ target: KeychainItem) throws(SessionStoreError) -> Data? {
        let (status, data) = keychain.copyData(target)
        switch status {
        case .success:
            guard let data else { throw .readFailed("the keychain returned no data (\(status))") }
            return data
        case .itemNotFound:
            return nil
        case .interactionNotAllowed:
            throw Self.locked(status)
        default:
            throw Self.inaccessible(status, target) ?? .readFailed("keychain: \(status)")
        }
    }

    /// Updates the item in place, or adds it when there is none yet.
    func write(_ data: Data) async throws(SessionStoreError) {
        let updated = keychain.update(item, data: data)
        switch updated {
        case .success:
            return  // the common case: a session already stored, replaced in place
        case .itemNotFound:
            // The first save on this device, unless the item is only hidden until the first unlock.
            guard await protectedData.isAvailable else {
                throw .deviceLocked("the keychain cannot be searched before the first unlock (\(updated))")
            }
        default:
            throw writeFailure(updated, "updating")
        }
        let added = keychain.add(item, data: data)
        switch added {
        case .success:
            return
        case .duplicateItem:
            // Another process (an extension) added it since our update: replace theirs.
            let retried = keychain.update(item, data: data)
            guard retried == .success else { throw writeFailure(retried, "updating after a concurrent add") }
        default:
            throw writeFailure(added, "adding")
        }
    }

    /// Reads the item back: a save is reported only once it is really there.
    func verify(_ data: Data) throws(SessionStoreError) {
        if try verifiedWithoutAsking() { return }
        let (status, readBack) = keychain.copyData(item)
        switch status {
        case .success, .itemNotFound:
            // Missing or different: another process wrote or cleared it in between, or the keychain lost it.
            guard readBack == data else { throw .verificationFailed }
        default:
            throw writeFailure(status, "reading back")
        }
    }

    /// Keeps an undecodable item under another account name, then deletes the
    /// original so the next load starts clean.
    ///
    /// - Returns: where the item now is.
    /// - Throws: ``SessionStoreError/readFailed(_:)`` when it could not be moved;
    ///   the original is then left where it was, so nothing is lost.
    func moveAside(_ data: Data) throws(SessionStoreError) -> StoredRecordLocation {
        let aside = item.renamed(to: "\(item.account).corrupt-\(UUID().uuidString)")
        let added = keychain.add(aside, data: data)
        guard added == .success else {
            throw .readFailed("the stored session is corrupt and could not be copied aside: keychain \(added)")
        }
        // Read again before deleting: a good session another process saved meanwhile must not be deleted.
        switch keychain.copyData(item) {
        case (.success, let current?) where current == data:
            break
        case (.itemNotFound, _):
            return .keychain(aside)  // another process cleared it meanwhile: already gone
        case (.success, _):
            throw .readFailed("the stored session changed while it was being moved aside; read it again")
        case (let status, _):
            throw .readFailed("the stored session is corrupt; a copy is kept as \(aside) but re-reading failed: \(status)")
        }
        let deleted = keychain.delete(item)
        guard deleted == .success || deleted == .itemNotFound else {
            throw .readFailed(
                "the stored session is corrupt; a copy is kept as \(aside) but the original could not be deleted: \(deleted)")
        }
        return .keychain(aside)
    }

    /// Refuses to overwrite or delete a record of a newer format: another app
    /// sharing the access group on a newer SDK still needs it.
    func refuseNewerRecord() throws(SessionStoreError) {
        let (status, data) = keychain.copyData(item)
        switch status {
        case .success:
            if let data, let version = StoredSession.formatVersion(of: data), version > StoredSession.currentVersion {
                throw .unsupportedVersion(version)
            }
        case .itemNotFound:
            return  // nothing there yet (or hidden before the first unlock: the write itself says so)
        default:
            throw writeFailure(status, "reading before writing")
        }
    }

    /// The error for a status no unlock can fix, naming the cause and the fix; `nil` for any other.
    static func inaccessible(_ status: KeychainStatus, _ item: KeychainItem) -> SessionStoreError? {
        switch status {
        case .missingEntitlement:
            let group = item.accessGroup.map { "the access group \"\($0)\"" } ?? "its default access group"
            return .inaccessible(
                "the keychain refused \(group) (\(status)). The target lacks the keychain entitlement: list the "
                    + "group, with its team ID prefix, under Keychain Sharing in every target that shares the session "
                    + "(the app and each extension), or pass a group the target has. On macOS, the data-protection "
                    + "keychain (the default) needs the keychain-access-groups entitlement, which a command-line tool "
                    + "or an unsigned build usually lacks: sign it with one, or use FileSessionStore instead.")
        case .decode:
            return .inaccessible(
                "the keychain could not decode \(item) (\(status)). The item is damaged; it is left in place. "
                    + "Sign in again; if saving keeps failing, the app can delete the item.")
        default:
            return nil
        }
    }

    /// A read the locked device refused, or answered "not found" before the first unlock.
    static func locked(_ status: KeychainStatus) -> SessionStoreError {
        .deviceLocked("the keychain answered \(status) before the device was unlocked")
    }

    /// A write that failed: transient when the device is locked, otherwise a write failure.
    func writeFailure(_ status: KeychainStatus, _ step: String) -> SessionStoreError {
        if let refused = gatedRefusal(status) { return refused }
        if status == .interactionNotAllowed { return .deviceLocked("\(step): \(status)") }
        if let refused = Self.inaccessible(status, item) { return refused }
        return .writeFailed("keychain, \(step): \(status)")
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context): context.debugDescription
        default: "not a session record"
        }
    }
}
