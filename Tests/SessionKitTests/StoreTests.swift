#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

struct StoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_767_225_600)

    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sessionkit-\(UUID().uuidString)")
    }

    func record(expiresAt: Date? = t0.addingTimeInterval(3600), access: String = "access-token-1") -> StoredSession {
        let user = SessionUser(id: "u1", email: "ada@example.com", createdAt: Self.t0, updatedAt: Self.t0)
        return StoredSession(
            accessToken: access, refreshToken: "refresh-token-1", expiresAt: expiresAt, lifetime: 3600, user: user,
            pkceVerifier: "verifier")
    }

    @Test func fileStoreRoundTripsWithMode0600() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        #expect(try await store.load() == nil)
        let saved = record()
        try await store.save(saved)
        let loaded = try #require(try await store.load())
        #expect(loaded.refreshToken == saved.refreshToken)
        #expect(loaded.pkceVerifier == "verifier")
        #expect(loaded.user?.id == "u1")
        #expect(abs((loaded.expiresAt ?? .distantPast).timeIntervalSince(saved.expiresAt ?? .distantFuture)) < 0.001)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // No temporary files left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.allSatisfy { !$0.hasSuffix(".tmp") })
        try await store.clear()
        #expect(try await store.load() == nil)
        try await store.clear()  // clearing nothing is fine
    }

    @Test func corruptFileIsReportedAndMovedAsideNeverSignedOut() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{\"access_token\": 42".utf8).write(to: store.fileURL)
        do {
            _ = try await store.load()
            Issue.record("a corrupt file must not load")
        } catch {
            #expect(error.isCorrupt)
            let moved = try #require(error.movedTo?.fileURL)
            #expect(FileManager.default.fileExists(atPath: moved.path))
            #expect(try Data(contentsOf: moved) == Data("{\"access_token\": 42".utf8))
        }
        // Moved aside: the next load starts clean.
        #expect(try await store.load() == nil)
    }

    @Test func newerFormatIsRefusedAndLeftInPlace() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        var newer = record()
        newer.version = 99
        try await store.save(newer)
        await #expect(throws: SessionStoreError.unsupportedVersion(99)) { try await store.load() }
        #expect(FileManager.default.fileExists(atPath: store.fileURL.path))
    }

    @Test func aNewerFormatThatDoesNotDecodeIsLeftInPlaceNotMovedAside() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let newer = Data(#"{"version": 2, "tokens": {"a": "b"}}"#.utf8)
        try newer.write(to: store.fileURL)
        await #expect(throws: SessionStoreError.unsupportedVersion(2)) { try await store.load() }
        #expect(try Data(contentsOf: store.fileURL) == newer)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("corrupt") }.isEmpty)
    }

    @Test func refreshLockExcludesAnotherStoreOnTheSameDirectory() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = FileSessionStore(directory: directory)
        let second = FileSessionStore(directory: directory)
        let held = try await first.lockForRefresh()
        // A non-blocking attempt on a new open file description fails while it is held.
        let fd = open(second.lockURL.path, O_RDWR)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) != 0)
        await held.unlock()
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        #expect(flock(fd, LOCK_UN) == 0)
        // And the second store can now take it.
        let again = try await second.lockForRefresh()
        await again.unlock()
        await again.unlock()  // idempotent
    }

    @Test func fileStoreRetriesAFailedWriteUpToThreeTimes() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let flaky = FileSessionStore(directory: directory, maximumWriteAttempts: 3) { (attempt: Int) throws(SessionStoreError) in
            if attempt < 3 { throw .writeFailed("injected on attempt \(attempt)") }
        }
        try await flaky.save(record())
        #expect(try await flaky.load()?.refreshToken == "refresh-token-1")

        let broken = FileSessionStore(directory: directory, maximumWriteAttempts: 3) { (attempt: Int) throws(SessionStoreError) in
            throw .writeFailed("injected on attempt \(attempt)")
        }
        var newer = record()
        newer.refreshToken = "refresh-token-2"
        await #expect(throws: SessionStoreError.writeFailed("")) { try await broken.save(newer) }
        // The earlier record is intact.
        #expect(try await broken.load()?.refreshToken == "refresh-token-1")
    }

    @Test func expiryComesFromTheRecordThenTheJWTElseExpired() {
        let jwtExp = Self.t0.addingTimeInterval(1800)
        let jwt = TestJWT.make(issuedAt: Self.t0, expiresAt: jwtExp)
        #expect(record(expiresAt: Self.t0.addingTimeInterval(60), access: jwt).session.expiresAt == Self.t0.addingTimeInterval(60))
        var fromJWT = record(expiresAt: nil, access: jwt)
        fromJWT.lifetime = nil
        #expect(fromJWT.session.expiresAt == jwtExp)
        #expect(fromJWT.session.lifetime == 1800)
        #expect(record(expiresAt: nil, access: "opaque").session.expiresAt == .distantPast)
    }

    @Test func inMemoryStoreKeepsOneRecord() async throws {
        let store = InMemorySessionStore()
        try await store.save(record())
        #expect(try await store.load()?.refreshToken == "refresh-token-1")
        try await store.clear()
        #expect(try await store.load() == nil)
    }
}
