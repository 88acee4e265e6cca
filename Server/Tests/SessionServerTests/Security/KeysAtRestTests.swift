import Crypto
import Foundation
import HTTPTypes
import SessionKitTesting
import SQLKit
import SessionCore
import Testing
@testable import SessionServer

/// Issue 15 §2: signing keys sealed at rest under a KEK the database does not
/// hold, and the SQLite file owner-only.
@Suite(.serialized)
struct KeysAtRestTests {
    static func storedValues(_ store: AuthStore) async throws -> [String] {
        try await store.signingKeyValues().map(\.value)
    }

    @Test(arguments: TestDatabase.all)
    func keysAreSealedWithTheKidAsAssociatedData(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            _ = try await client.signUp()
            try await test.server.keyRing.rotate()
            let stored = try await test.server.store.signingKeyValues()
            #expect(stored.count == 2)
            for (kid, value) in stored {
                #expect(!value.contains("PRIVATE KEY"))
                #expect(value.hasPrefix("sealed:v1:\(AuthServerConfiguration.testingKEK.id):"))
                #expect(try AuthServerConfiguration.testingKEK.open(value, kid: kid).contains("PRIVATE KEY"))
                // Moved to another kid, it does not open.
                #expect(throws: KeyEncryptionError.corrupt(kid: "other")) {
                    try AuthServerConfiguration.testingKEK.open(value, kid: "other")
                }
            }
        }
    }

    @Test func plaintextKeysAreSealedOnStartAndAWrongKEKIsNamed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kek-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = DatabaseLocation.sqlite(path: folder.appendingPathComponent("auth.sqlite").path)
        // An older server: keys written as plaintext PEMs.
        let old = try await TestServer.make(location: location)
        let kid = try await old.run { _ in
            let kid = try await old.server.keyRing.currentKeyID()
            let pem = try await old.server.keyRing.currentKey().privateKey.pemRepresentation
            try await old.server.store.withTransaction { db in
                try await db.raw("UPDATE signing_keys SET private_key_pem = \(bind: pem)").run()
            }
            return kid
        }
        let kek = try KeyEncryptionKey(rawValue: Data(repeating: 7, count: 32))
        let upgraded = try await TestServer.make(location: location) { $0.keyEncryptionKey = kek }
        try await upgraded.run { client in
            #expect(try await upgraded.server.keyRing.currentKeyID() == kid)
            let values = try await Self.storedValues(upgraded.server.store)
            #expect(values.allSatisfy { $0.hasPrefix("sealed:v1:\(kek.id):") })
            _ = try await client.signUp()
        }
        // Started with another KEK, the server refuses and says which one sealed the keys.
        let otherKEK = try KeyEncryptionKey(rawValue: Data(repeating: 9, count: 32))
        let wrong = try await TestServer.make(location: location) { $0.keyEncryptionKey = otherKEK }
        await #expect(throws: KeyEncryptionError.wrongKey(kid: kid, sealedUnder: kek.id)) {
            try await wrong.server.withDatabase { try await wrong.server.prepare() }
        }
    }

    @Test func withoutAKEKTheServerWarnsOnceAndRunsOnTheDefault() async throws {
        let logs = CapturedLogs()
        let test = try await TestServer.make(logger: logs.logger()) { $0.keyEncryptionKey = nil }
        try await test.run { client in
            _ = try await client.signUp()
            let values = try await Self.storedValues(test.server.store)
            #expect(values.allSatisfy { $0.hasPrefix("sealed:v1:\(KeyEncryptionKey.embeddedDefault.id):") })
        }
        #expect(logs.all.filter { $0.contains("No key-encryption key") }.count == 1)
    }

    @Test func theKEKComesFromAFileOrTheEnvironment() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kek-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let material = Data(repeating: 3, count: 32)
        try (material.base64EncodedString() + "\n").write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try AuthServerConfiguration.resolve(ConfigurationOverrides(keyEncryptionKeyFile: file.path), environment: [:])
        let fromEnvironment = try AuthServerConfiguration.resolve(
            ConfigurationOverrides(), environment: ["AUTH_SERVER_KEY_ENCRYPTION_KEY": material.base64EncodedString()])
        #expect(fromFile.keyEncryptionKey?.id == (try KeyEncryptionKey(rawValue: material)).id)
        #expect(fromEnvironment.keyEncryptionKey?.id == fromFile.keyEncryptionKey?.id)
        #expect(try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: [:]).keyEncryptionKey == nil)
        #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: ["AUTH_SERVER_KEY_ENCRYPTION_KEY": "c2hvcnQ="])
        }
    }

    @Test func theSQLiteFileAndFolderAreOwnerOnly() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("perm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("data")
        let path = folder.appendingPathComponent("auth.sqlite").path
        let test = try await TestServer.make(location: .sqlite(path: path))
        try await test.run { client in
            _ = try await client.signUp()
            #expect(SQLiteFilePermissions.permissions(of: folder.path) == 0o700)
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(SQLiteFilePermissions.permissions(of: file) == 0o600, "\(file)")
            }
        }
    }

    @Test func anExistingWiderFileIsNamedInAWarning() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wide-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("auth.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        let logs = CapturedLogs()
        let test = try await TestServer.make(location: .sqlite(path: path), logger: logs.logger())
        try await test.run { _ in }
        #expect(logs.all.contains { $0.hasPrefix("warning") && $0.contains(path) && $0.contains("644") })
    }
}
