#if canImport(Security)
import Foundation
import Security
import SessionCore

/// The session record as one generic-password keychain item (Apple platforms).
///
/// Accessible after first unlock, so background refreshes work while the
/// device is locked; an access group shares it with app extensions. Kept thin:
/// the record is the same JSON as ``FileSessionStore`` writes. The keychain
/// has no lock across processes: give `lockDirectory` (a folder in the app
/// group container) so an app and its extensions refresh one at a time;
/// without it they rely on the server's reuse grace and adoption.
public struct KeychainSessionStore: SessionStore {
    public let service: String
    public let account: String
    public let accessGroup: String?
    /// Where the cross-process refresh lock lives (an app group folder), if anywhere.
    public let lockDirectory: URL?

    /// - Parameters:
    ///   - service: the keychain service (default: the app's bundle id + ".sessionkit").
    ///   - account: the item's account name.
    ///   - accessGroup: a keychain access group shared with app extensions.
    ///   - lockDirectory: a folder every process sharing the item can reach, for the refresh lock.
    public init(
        service: String? = nil, account: String = "session", accessGroup: String? = nil, lockDirectory: URL? = nil
    ) {
        self.service = service ?? ((Bundle.main.bundleIdentifier ?? "SessionKit") + ".sessionkit")
        self.account = account
        self.accessGroup = accessGroup
        self.lockDirectory = lockDirectory
    }

    private var baseQuery: [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private func readData() throws(SessionStoreError) -> Data? {
        var query = baseQuery
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else {
            // errSecInteractionNotAllowed: locked before first unlock. Not "signed out".
            throw .readFailed("keychain status \(status)")
        }
        return data
    }

    public func load() async throws(SessionStoreError) -> StoredSession? {
        guard let data = try readData() else { return nil }
        let record: StoredSession
        do {
            record = try WireCoding.decoder().decode(StoredSession.self, from: data)
        } catch {
            // The keychain has nowhere to move a bad item aside; report it and leave it.
            throw .corrupt(detail: "undecodable keychain item", movedTo: nil)
        }
        if record.version > StoredSession.currentVersion { throw .unsupportedVersion(record.version) }
        return record
    }

    public func save(_ session: StoredSession) async throws(SessionStoreError) {
        let data: Data
        do {
            data = try WireCoding.encoder().encode(session)
        } catch {
            throw .writeFailed("encoding: \(error)")
        }
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
        ]
        var status = SecItemUpdate(baseQuery as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            var add = baseQuery
            add.merge(attributes) { _, new in new }
            status = SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw .writeFailed("keychain status \(status)") }
        guard try readData() == data else { throw .verificationFailed }
    }

    public func clear() async throws(SessionStoreError) {
        let status = SecItemDelete(baseQuery as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw .deleteFailed("keychain status \(status)")
        }
    }

    public func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        guard let lockDirectory else { return NoCrossProcessLock() }
        do {
            try FileManager.default.createDirectory(at: lockDirectory, withIntermediateDirectories: true)
        } catch {
            throw .lockFailed("creating \(lockDirectory.path): \(error)")
        }
        return try await FileLock.acquire(path: lockDirectory.appendingPathComponent("session.lock").path)
    }
}
#endif
