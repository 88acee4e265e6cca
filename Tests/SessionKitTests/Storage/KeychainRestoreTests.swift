import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// ``KeychainSessionStore`` under the client: launches before the first unlock, and the refresh lock.
struct KeychainRestoreTests {
    @Test func restoreStaysRestoringWhileTheDeviceIsLockedThenSignsIn() async throws {
        let f = KeychainFixture(protectedDataAvailable: false)
        let signedIn = await Fixture.make(store: f.store, launchValidation: .skip)
        await f.protectedData.setAvailable(true)
        let session = try await signedIn.signIn()
        await signedIn.client.shutdown()

        // A prewarmed launch after a restart: the item is hidden until the person unlocks.
        await f.protectedData.setAvailable(false)
        f.keychain.lockBeforeFirstUnlock(answering: .itemNotFound)
        let launch = await Fixture.make(
            store: f.store, clock: signedIn.clock, fake: signedIn.fake, launchValidation: .skip)
        await #expect(throws: SessionError.storeUnavailable) { try await launch.client.restore() }
        #expect(launch.client.currentState == .restoring)

        f.keychain.unlock()
        await f.protectedData.setAvailable(true)
        let state = try await launch.client.restore()
        #expect(state.session?.refreshToken == session.refreshToken)
        await launch.client.shutdown()
    }

    @Test func theLockInTheLockDirectoryExcludesAnotherProcess() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sessionkit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Two processes (an app and its extension), each with its own view of the shared keychain item.
        let app = KeychainFixture(lockDirectory: directory)
        let widget = KeychainFixture(lockDirectory: directory)
        let held = try await app.store.lockForRefresh()
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("session.lock").path))
        await #expect(throws: SessionStoreError.lockFailed("")) {
            _ = try await widget.store.lockForRefresh(waitingAtMost: 0.05)
        }
        await held.unlock()
        let next = try await widget.store.lockForRefresh(waitingAtMost: 5)
        await next.unlock()
    }

    @Test func withoutALockDirectoryTheLockIsOnlyThisProcesss() async throws {
        let lock = try await KeychainFixture().store.lockForRefresh()
        #expect(lock is ProcessLock)
        await lock.unlock()
    }
}
