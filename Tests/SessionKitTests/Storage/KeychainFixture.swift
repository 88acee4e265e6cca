import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting

/// A ``KeychainSessionStore`` on an in-memory keychain, with protected data
/// available unless told otherwise.
struct KeychainFixture {
    static let t0 = Date(timeIntervalSince1970: 1_767_225_600)
    static let wait = Duration.seconds(7)

    let keychain = InMemoryKeychain()
    let protectedData: ScriptedProtectedData
    let store: KeychainSessionStore

    init(
        protectedDataAvailable: Bool = true, accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
        lockDirectory: URL? = nil
    ) {
        protectedData = ScriptedProtectedData(isAvailable: protectedDataAvailable)
        store = KeychainSessionStore(
            keychain: keychain, service: "com.example.app.sessionkit", accessGroup: "TEAMID.com.example.shared",
            accessibility: accessibility, lockDirectory: lockDirectory, protectedData: protectedData,
            protectedDataWait: Self.wait)
    }

    /// The item the store keeps its record in.
    var item: KeychainItem { store.item }

    /// What the keychain holds for the store's item, as bytes.
    var storedData: Data? { keychain.storedItem(item)?.data }

    static func record(access: String = "access-token-1", refresh: String = "refresh-token-1") -> StoredSession {
        let user = SessionUser(id: "u1", email: "ada@example.com", createdAt: t0, updatedAt: t0)
        return StoredSession(
            accessToken: access, refreshToken: refresh, expiresAt: t0.addingTimeInterval(3600), lifetime: 3600,
            user: user)
    }

    static func encoded(_ record: StoredSession) throws -> Data {
        try WireCoding.encoder().encode(record)
    }

    /// Writes `record` straight into the keychain, as an earlier launch would have.
    func plant(_ record: StoredSession) throws {
        keychain.plant(try Self.encoded(record), for: item)
    }
}
