import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records written under an earlier identity: found, moved to the current
/// one, and only then deleted (docs/PROTOCOL.md, "The Keychain item").
extension KeychainSessionStore {
    /// SessionKit's earlier default services, `<bundle id>.sessionkit`: in an
    /// app extension also its containing app's, which wrote the record.
    static func bundleDerivedServices(_ bundle: Bundle) -> [String] {
        bundleDerivedServices(
            bundleIdentifier: bundle.bundleIdentifier, isAppExtension: bundle.bundleURL.pathExtension == "appex")
    }

    /// - Parameters:
    ///   - bundleIdentifier: the main bundle's identifier; earlier versions wrote `SessionKit.sessionkit` without one.
    ///   - isAppExtension: whether the main bundle is an `.appex`, whose identifier extends its app's.
    static func bundleDerivedServices(bundleIdentifier: String?, isAppExtension: Bool) -> [String] {
        guard let identifier = bundleIdentifier, !identifier.isEmpty else { return ["SessionKit.sessionkit"] }
        var services: [String] = []
        // An extension's identifier is its app's plus one component (com.example.app.widget).
        if isAppExtension, let dot = identifier.lastIndex(of: ".") {
            services.append(String(identifier[..<dot]) + ".sessionkit")
        }
        services.append(identifier + ".sessionkit")
        return services
    }

    /// The queries that find a record an earlier version wrote: each earlier
    /// service in every group this process holds, and, when a group is named
    /// now, the current service in every group (an app that added a group in an update).
    var earlierQueries: [KeychainItem] {
        var queries = previousServices.map { service in
            var query = item
            query.service = service
            query.accessGroup = nil
            return query
        }
        if item.accessGroup != nil {
            var anyGroup = item
            anyGroup.accessGroup = nil
            queries.append(anyGroup)
        }
        return queries
    }

    /// Every item an earlier identity left, each named with its exact group, never the current item.
    func earlierItems() throws(SessionStoreError) -> [KeychainItem] {
        var found: [KeychainItem] = []
        for query in earlierQueries {
            let (status, items) = keychain.findItems(query)
            switch status {
            case .success:
                found += items.filter { !isCurrent($0) && !found.contains($0) }
            case .itemNotFound:
                continue
            case .interactionNotAllowed:
                throw Self.locked(status)
            default:
                throw Self.inaccessible(status, query) ?? .readFailed("keychain, searching \(query): \(status)")
            }
        }
        return found
    }

    /// True when `found` is (or may be) the current item: deleting it would delete the session.
    private func isCurrent(_ found: KeychainItem) -> Bool {
        guard found.service == item.service, found.account == item.account else { return false }
        // A match without a known group cannot be told apart from the current item: leave it.
        guard let group = found.accessGroup, let current = item.accessGroup else { return true }
        return group == current
    }

    /// Moves the first record an earlier identity left to the current item.
    ///
    /// Copy, read the copy back, then delete the original by its exact group:
    /// killed before the copy, the original stands; killed after it, the copy
    /// is read next time and ``clear()`` removes what is left.
    ///
    /// - Returns: the record's bytes, or `nil` when no earlier identity left one.
    func moveEarlierItem() async throws(SessionStoreError) -> Data? {
        for earlier in try earlierItems() {
            let (status, read) = keychain.copyData(earlier)
            let data: Data
            switch (status, read) {
            case (.success, let bytes?):
                data = bytes
            case (.itemNotFound, _), (.success, nil):
                continue  // gone meanwhile (another process moved it)
            case (.interactionNotAllowed, _):
                throw Self.locked(status)
            default:
                throw Self.inaccessible(status, earlier) ?? .readFailed("keychain, reading \(earlier): \(status)")
            }
            if let version = StoredSession.formatVersion(of: data), version > StoredSession.currentVersion {
                throw .unsupportedVersion(version)  // a newer SDK's: never moved, never deleted
            }
            let added = keychain.add(item, data: data)
            switch added {
            case .success:
                break
            case .duplicateItem:
                // Another process moved it (or saved a session) first: the current item wins.
                return try await readItem()
            default:
                throw writeFailure(added, "moving \(earlier) to \(item)")
            }
            let (checked, readBack) = keychain.copyData(item)
            guard checked == .success, let readBack else {
                throw writeFailure(checked, "reading back the session moved from \(earlier); the original is kept")
            }
            // Different bytes: another process wrote the current item since; theirs is newer, and the original stays.
            guard readBack == data else { return readBack }
            do {
                try deleteEarlier(earlier)
            } catch {
                // The session is safe in the current item, verified; the leftover
                // copy is older than anything saved from now on, and `clear()` deletes it.
                return data
            }
            return data
        }
        return nil
    }

    /// Deletes every record an earlier identity left (a sign-out's, so none comes back).
    func deleteEarlierItems() throws(SessionStoreError) {
        for earlier in try earlierItems() {
            try deleteEarlier(earlier)
        }
    }

    private func deleteEarlier(_ earlier: KeychainItem) throws(SessionStoreError) {
        let deleted = keychain.delete(earlier)
        switch deleted {
        case .success, .itemNotFound:
            return
        case .interactionNotAllowed:
            throw .deviceLocked("deleting \(earlier): \(deleted)")
        default:
            // The session itself is safe in the current item; what is left is reported, never ignored.
            throw Self.inaccessible(deleted, earlier) ?? .deleteFailed("keychain, deleting \(earlier): \(deleted)")
        }
    }

    /// The first load of a new install (no ``installMarker`` mark yet) deletes
    /// what a deleted install left in the keychain, which survives deletion,
    /// then marks the install.
    ///
    /// The trade-off: turning this on in an update signs every existing user
    /// out once (their install was never marked), and a marker in an
    /// extension's own defaults would delete the app's session; share the
    /// marker through an app group's suite. Off, a reinstall finds the old
    /// session and stays signed in, as it did before. A kill between the
    /// delete and the mark only deletes again (nothing) at the next launch.
    func forgetDeletedInstallSession() async throws(SessionStoreError) {
        guard let installMarker else { return }
        try await clear()
        installMarker.mark()
    }
}
