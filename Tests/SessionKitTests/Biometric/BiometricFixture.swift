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
    let biometrics: SimulatedBiometrics
    let process: InMemoryKeychain
    let store: KeychainSessionStore

    init(
        _ window: BiometricPolicy.Window, protection: BiometricProtection = .biometryCurrentSet, presentsUserInterface: Bool = true,
        process: InMemoryKeychain = SimulatedDeviceKeychain().process(accessGroups: [KeychainFixture.appGroup]),
        biometrics: SimulatedBiometrics = SimulatedBiometrics()
    ) {
        self.process = process
        self.biometrics = biometrics
        store = KeychainSessionStore(
            keychain: SimulatedBiometricKeychain(process: process, biometrics: biometrics),
            policy: BiometricPolicy(window: window, protection: protection, presentsUserInterface: presentsUserInterface),
            clock: clock, protectedData: ScriptedProtectedData(isAvailable: true))
    }

    var gate: BiometricGate { store.biometricGate! }

    /// The same device after a relaunch: a new process with a new gate, on the same keychain and biometrics.
    func relaunched(_ window: BiometricPolicy.Window) -> BiometricFixture {
        BiometricFixture(window, process: process, biometrics: biometrics)
    }

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
