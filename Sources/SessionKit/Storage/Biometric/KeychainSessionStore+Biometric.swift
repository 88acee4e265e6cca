import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

extension KeychainSessionStore {
    /// Creates a store whose record sits behind Face ID, Touch ID or the passcode
    /// (docs/PROTOCOL.md, "The biometric gate").
    ///
    /// The item is written with `kSecAttrAccessControl` (the policy's protection) and read
    /// with one authentication context per window. A cancelled, failed or
    /// invalidated check throws ``SessionStoreError/authenticationRequired(_:detail:)``
    /// and leaves the record where it is; the client shows ``SessionState/locked(_:)``.
    ///
    /// - Parameters:
    ///   - keychain: the keychain with access control (`SecItemKeychain` on Apple platforms).
    ///   - policy: when to ask.
    ///   - clock: the client's clock, on which a timed window is measured.
    ///   - inForeground: false for a background launch, an extension or a widget.
    ///   - service: the keychain service.
    ///   - account: the item's account name.
    ///   - accessGroup: a keychain access group shared with app extensions.
    ///   - lockDirectory: a folder every process sharing the item can reach, for the refresh lock.
    ///   - protectedData: whether protected data is readable yet.
    public init(
        keychain: any BiometricKeychainAPI, policy: BiometricPolicy, clock: any SessionClock, inForeground: Bool = true,
        service: String = KeychainSessionStore.defaultService, account: String = "session", accessGroup: String? = nil,
        lockDirectory: URL? = nil, protectedData: any ProtectedDataAvailability
    ) {
        let gate = BiometricGate(policy: policy, keychain: keychain, clock: clock, inForeground: inForeground)
        // An item behind biometrics is readable only while unlocked, and never leaves the device.
        let item = KeychainItem(service: service, account: account, accessGroup: accessGroup, accessibility: .whenPasscodeSetThisDeviceOnly)
        self.init(
            keychain: GatedKeychain(base: keychain, gate: gate, record: item), service: service, account: account,
            accessGroup: accessGroup, accessibility: .whenPasscodeSetThisDeviceOnly, previousServices: [],
            lockDirectory: lockDirectory, protectedData: protectedData)
        self.biometricGate = gate
    }

    /// The gate's refusal for a keychain answer, or `nil` when `status` is not one
    /// (or there is no gate): a cancel, a failure, or a check due without UI.
    func gatedRefusal(_ status: KeychainStatus) -> SessionStoreError? {
        guard let biometricGate else { return nil }
        switch status {
        case .userCanceled:
            return .authenticationRequired(.cancelled, detail: "the check was cancelled (\(status))")
        case .authFailed:
            return .authenticationRequired(.failed, detail: "the check failed (\(status))")
        case .interactionNotAllowed where !biometricGate.interactionAllowed:
            // The context may not ask here (the background, an extension): wait for the app in front.
            return .authenticationRequired(.needsForeground, detail: "a check is due and no UI may be shown (\(status))")
        default:
            return nil
        }
    }

    /// After a read found no record: an invalidated record is told, never read as "signed out".
    func refuseInvalidatedRecord() throws(SessionStoreError) {
        guard let biometricGate, biometricGate.sawInvalidatedRecord else { return }
        throw .authenticationRequired(
            .biometryChanged,
            detail: "biometrics were enrolled anew, which invalidated the stored session; sign in again")
    }

    /// Behind a gate that has not passed a check (a sign-in), reading the new record back
    /// would show the sheet: the save is confirmed by the item's presence instead
    /// (attributes only, which need no check). `false` when the data can be read back.
    func verifiedWithoutAsking() throws(SessionStoreError) -> Bool {
        guard let biometricGate, !biometricGate.hasPassedCheck else { return false }
        let (status, found) = keychain.findItems(item)
        switch status {
        case .success where found.contains { $0.account == item.account }:
            return true
        case .success, .itemNotFound:
            throw .verificationFailed  // another process cleared it in between, or the keychain lost it
        default:
            throw writeFailure(status, "confirming the save")
        }
    }

    /// A save over a record a biometry change invalidated: the item exists and can never be
    /// read or updated again. Only a new save (the person signed in again: the app said so)
    /// replaces it; a load never deletes it.
    func replaceInvalidatedRecord(_ data: Data) throws(SessionStoreError) -> Bool {
        guard let biometricGate, biometricGate.sawInvalidatedRecord else { return false }
        let deleted = keychain.delete(item)
        guard deleted == .success || deleted == .itemNotFound else { throw writeFailure(deleted, "replacing the invalidated item") }
        let added = keychain.add(item, data: data)
        guard added == .success else { throw writeFailure(added, "adding after replacing the invalidated item") }
        biometricGate.recordReplaced()
        return true
    }
}
