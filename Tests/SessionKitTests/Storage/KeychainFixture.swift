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

    static let sharedGroup = "TEAMID.com.example.shared"
    static let appGroup = "TEAMID.com.example.app"
    static let widgetGroup = "TEAMID.com.example.app.widget"
    /// What version 1 of SessionKit named the item: the app's bundle id + ".sessionkit".
    static let bundleDerivedService = "com.example.app.sessionkit"

    let keychain: InMemoryKeychain
    let protectedData: ScriptedProtectedData
    let store: KeychainSessionStore

    /// - Parameters:
    ///   - keychain: the process (by default an app holding the shared group, then its app ID, on a new device).
    ///   - accessGroup: the group the store names (the shared one by default).
    init(
        protectedDataAvailable: Bool = true, accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
        lockDirectory: URL? = nil,
        keychain: InMemoryKeychain = InMemoryKeychain(accessGroups: [Self.sharedGroup, Self.appGroup]),
        accessGroup: String? = Self.sharedGroup, previousServices: [String] = [Self.bundleDerivedService],
        installMarker: (any InstallMarker)? = nil
    ) {
        self.keychain = keychain
        protectedData = ScriptedProtectedData(isAvailable: protectedDataAvailable)
        store = KeychainSessionStore(
            keychain: keychain, accessGroup: accessGroup, accessibility: accessibility,
            previousServices: previousServices, lockDirectory: lockDirectory, protectedData: protectedData,
            protectedDataWait: Self.wait, installMarker: installMarker)
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
