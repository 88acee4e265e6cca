import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting

/// A ``KeychainSessionStore`` behind a simulated Face ID, on a test clock.
struct BiometricFixture {
    let clock = ManualClock()
    let biometrics = SimulatedBiometrics()
    let process: InMemoryKeychain
    let store: KeychainSessionStore

    init(_ window: BiometricPolicy.Window, protection: BiometricProtection = .biometryCurrentSet, presentsUserInterface: Bool = true) {
        process = SimulatedDeviceKeychain().process(accessGroups: [KeychainFixture.appGroup])
        store = KeychainSessionStore(
            keychain: SimulatedBiometricKeychain(process: process, biometrics: biometrics),
            policy: BiometricPolicy(window: window, protection: protection, presentsUserInterface: presentsUserInterface),
            clock: clock, protectedData: ScriptedProtectedData(isAvailable: true))
    }

    var gate: BiometricGate { store.biometricGate! }

    /// The record's bytes, whatever access control says.
    var storedData: Data? { process.storedItem(store.item)?.data }

    /// Loads, giving the refusal's reason instead of throwing.
    func loadReason() async -> BiometricLockReason? {
        do {
            _ = try await store.load()
            return nil
        } catch {
            return error.lockReason
        }
    }
}
