import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ``KeychainAPI`` a gated ``KeychainSessionStore`` calls: every read and
/// write of the record passes the gate's context and access control, so the
/// store's steps (read, write, verify, move aside) stay the same with or without a gate.
///
/// Beside the record it keeps a marker item (`<account>.biometric`, no access
/// control, nothing secret in it): a record the keychain no longer finds while
/// the marker is there was invalidated by a biometry change, not signed out
/// (docs/PROTOCOL.md, "The biometric gate").
struct GatedKeychain: KeychainAPI {
    let base: any BiometricKeychainAPI
    let gate: BiometricGate
    /// The record's item: only its writes carry a marker (not a corrupt copy moved aside).
    let record: KeychainItem

    var processLockNamespace: String { base.processLockNamespace }

    /// The marker of `item`.
    static func marker(of item: KeychainItem) -> KeychainItem {
        item.renamed(to: "\(item.account).biometric")
    }

    func add(_ item: KeychainItem, data: Data) -> KeychainStatus {
        let status = base.add(item, data: data, protection: gate.policy.protection, context: gate.currentContext())
        if status == .success { mark(item) }
        return status
    }

    func update(_ item: KeychainItem, data: Data) -> KeychainStatus {
        let status = base.update(item, data: data, protection: gate.policy.protection, context: gate.currentContext())
        gate.record(status)
        if status == .success { mark(item) }
        return status
    }

    func copyData(_ item: KeychainItem) -> (status: KeychainStatus, data: Data?) {
        let answer = base.copyData(item, context: gate.currentContext())
        gate.record(answer.status)
        if answer.status == .itemNotFound, base.copyData(Self.marker(of: item)).status == .success {
            // The marker without its record: the item was invalidated, not deleted (a sign-out deletes both).
            gate.recordInvalidation()
        }
        return answer
    }

    func findItems(_ item: KeychainItem) -> (status: KeychainStatus, items: [KeychainItem]) {
        base.findItems(item)
    }

    func delete(_ item: KeychainItem) -> KeychainStatus {
        let status = base.delete(item)
        // The record first, then its marker: a kill in between leaves a marker that reads as
        // "biometrics changed" once, never a record that reads as signed out.
        if status == .success || status == .itemNotFound {
            let marker = base.delete(Self.marker(of: item))
            if marker != .success, marker != .itemNotFound { return marker }
        }
        return status
    }

    /// Writes the marker beside a record just written.
    private func mark(_ item: KeychainItem) {
        guard item.service == record.service, item.account == record.account else { return }
        let marker = Self.marker(of: item)
        let flag = Data("1".utf8)
        // Best effort by design: a missing marker only loses the "biometrics changed" message, never a session.
        if base.update(marker, data: flag) == .itemNotFound { _ = base.add(marker, data: flag) }
    }
}
