import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit

/// One process's keychain with access control: an ``InMemoryKeychain`` (groups,
/// accessibility, locking, scripting) behind ``SimulatedBiometrics``' rules.
///
/// ```swift
/// let device = SimulatedDeviceKeychain()
/// let biometrics = SimulatedBiometrics()
/// let keychain = SimulatedBiometricKeychain(process: device.process(accessGroups: ["TEAMID.app"]), biometrics: biometrics)
/// biometrics.answerNextChecks(.userCanceled)   // the person taps Cancel
/// ```
public struct SimulatedBiometricKeychain: BiometricKeychainAPI {
    /// The process's keychain underneath (its scripting and inspection work as usual).
    public let process: InMemoryKeychain
    /// The device's biometrics.
    public let biometrics: SimulatedBiometrics

    public init(process: InMemoryKeychain, biometrics: SimulatedBiometrics) {
        self.process = process
        self.biometrics = biometrics
    }

    public var processLockNamespace: String { process.processLockNamespace }

    public func makeAuthenticationContext(
        allowsInteraction: Bool, deviceUnlockReuse: TimeInterval, localizedReason: String
    ) -> any KeychainAuthenticationContext {
        SimulatedAuthenticationContext(allowsInteraction: allowsInteraction, deviceUnlockReuse: deviceUnlockReuse)
    }

    public func add(
        _ item: KeychainItem, data: Data, protection: BiometricProtection, context: any KeychainAuthenticationContext
    ) -> KeychainStatus {
        // Adding never asks (the item is created; using it will).
        let status = process.add(item, data: data)
        if status == .success { biometrics.written(item, protection: protection) }
        return status
    }

    public func update(
        _ item: KeychainItem, data: Data, protection: BiometricProtection, context: any KeychainAuthenticationContext
    ) -> KeychainStatus {
        if biometrics.isInvalidated(item) { return .itemNotFound }
        if biometrics.isProtected(item), process.storedItem(item) != nil, let refused = biometrics.check(simulated(context)) {
            return refused
        }
        let status = process.update(item, data: data)
        if status == .success { biometrics.written(item, protection: protection) }
        return status
    }

    public func copyData(_ item: KeychainItem, context: any KeychainAuthenticationContext) -> (status: KeychainStatus, data: Data?) {
        if biometrics.isInvalidated(item) { return (.itemNotFound, nil) }
        if biometrics.isProtected(item), process.storedItem(item) != nil, let refused = biometrics.check(simulated(context)) {
            return (refused, nil)
        }
        return process.copyData(item)
    }

    // The calls without a context: the unprotected marker, and deletes and searches, which never ask.

    public func add(_ item: KeychainItem, data: Data) -> KeychainStatus { process.add(item, data: data) }
    public func update(_ item: KeychainItem, data: Data) -> KeychainStatus { process.update(item, data: data) }
    public func copyData(_ item: KeychainItem) -> (status: KeychainStatus, data: Data?) { process.copyData(item) }
    public func findItems(_ item: KeychainItem) -> (status: KeychainStatus, items: [KeychainItem]) { process.findItems(item) }

    public func delete(_ item: KeychainItem) -> KeychainStatus {
        let status = process.delete(item)
        if status == .success { biometrics.forget(item) }
        return status
    }

    private func simulated(_ context: any KeychainAuthenticationContext) -> SimulatedAuthenticationContext {
        // A context from another keychain is a programming error in a test.
        guard let simulated = context as? SimulatedAuthenticationContext else {
            preconditionFailure("SimulatedBiometricKeychain was given a context it did not make")
        }
        return simulated
    }
}
