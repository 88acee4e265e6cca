import Foundation
import SessionKit
import SessionKitTesting
import Testing

/// A process the keychain refuses for good (-34018, a Mac command-line tool
/// on the data-protection keychain) is told the entitlement it lacks and the
/// store that needs none (README, "A command-line tool").
struct KeychainEntitlementMessageTests {
    @Test func aMissingEntitlementNamesItAndTheAlternative() async throws {
        let unsigned = SimulatedDeviceKeychain().process(accessGroups: [])
        let store = KeychainSessionStore(
            keychain: unsigned, previousServices: [], protectedData: ScriptedProtectedData(isAvailable: true))
        let error = await #expect(throws: SessionStoreError.self) { try await store.load() }
        #expect(error?.isInaccessible == true)
        let text = error?.reason ?? ""
        #expect(text.contains("keychain-access-groups"))
        #expect(text.contains("FileSessionStore"))
        #expect(text.contains("-34018"))
    }
}
