import Foundation
import Testing
@testable import SessionKit
import SessionKitTesting

/// The person unlocks between the keychain's "not found" (answered while
/// locked, iOS 15 and later) and the store's question whether protected data
/// is available: the answer came from a locked keychain and must not be
/// believed (issue 31, row 5; a clean chaos run with seed 20261217 published
/// `signedOut` on a prewarmed launch this way).
struct KeychainUnlockRaceTests {
    /// Protected data that becomes available exactly when it is first asked: the unlock lands there.
    struct UnlocksWhenAsked: ProtectedDataAvailability {
        let device: SimulatedDeviceKeychain
        var isAvailable: Bool {
            device.unlock()
            return true
        }
        func waitUntilAvailable(timeout: Duration) async -> Bool {
            device.unlock()
            return true
        }
    }

    @Test func aNotFoundAnsweredJustBeforeTheUnlockIsReadAgain() async throws {
        let device = SimulatedDeviceKeychain()
        let process = device.process(accessGroups: InMemoryKeychain.defaultAccessGroups)
        let unlocked = KeychainSessionStore(keychain: process, previousServices: [], protectedData: AlwaysAvailableProtectedData())
        try await unlocked.save(KeychainFixture.record())
        device.restart()  // before the first unlock: "not found" for the item that is there
        let store = KeychainSessionStore(keychain: process, previousServices: [], protectedData: UnlocksWhenAsked(device: device))
        let loaded = try await store.load()
        #expect(loaded?.refreshToken == "refresh-token-1", "a not-found from the locked keychain was taken for no session")
    }
}
