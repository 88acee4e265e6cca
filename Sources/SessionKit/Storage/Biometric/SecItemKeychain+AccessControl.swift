#if canImport(Security) && canImport(LocalAuthentication)
import Foundation
import LocalAuthentication
import Security

/// The Security framework's calls for an item behind access control: thin
/// bindings; the gate's decisions live in ``BiometricGate`` (docs/PROTOCOL.md,
/// "The biometric gate"). tvOS has no LocalAuthentication, hence no gate.
extension SecItemKeychain: BiometricKeychainAPI {
    public func makeAuthenticationContext(
        allowsInteraction: Bool, deviceUnlockReuse: TimeInterval, localizedReason: String
    ) -> any KeychainAuthenticationContext {
        LAContextAuthentication(
            allowsInteraction: allowsInteraction, deviceUnlockReuse: deviceUnlockReuse, localizedReason: localizedReason)
    }

    public func add(
        _ item: KeychainItem, data: Data, protection: BiometricProtection, context: any KeychainAuthenticationContext
    ) -> KeychainStatus {
        guard let access = Self.accessControl(item, protection), let la = context as? LAContextAuthentication else { return .param }
        var attributes = Self.query(for: item)
        attributes[kSecValueData as String] = data
        // kSecAttrAccessControl carries the accessibility class: kSecAttrAccessible must not be set beside it.
        attributes[kSecAttrAccessControl as String] = access
        attributes[kSecUseAuthenticationContext as String] = la.context
        return KeychainStatus(rawValue: SecItemAdd(attributes as CFDictionary, nil))
    }

    public func update(
        _ item: KeychainItem, data: Data, protection: BiometricProtection, context: any KeychainAuthenticationContext
    ) -> KeychainStatus {
        guard let access = Self.accessControl(item, protection), let la = context as? LAContextAuthentication else { return .param }
        var query = Self.query(for: item)
        // A context that passed a check lets the update through without asking (kSecUseAuthenticationContext).
        query[kSecUseAuthenticationContext as String] = la.context
        let changes: [String: Any] = [kSecValueData as String: data, kSecAttrAccessControl as String: access]
        return KeychainStatus(rawValue: SecItemUpdate(query as CFDictionary, changes as CFDictionary))
    }

    public func copyData(_ item: KeychainItem, context: any KeychainAuthenticationContext) -> (status: KeychainStatus, data: Data?) {
        guard let la = context as? LAContextAuthentication else { return (.param, nil) }
        var query = Self.query(for: item)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        // Without UI (interactionNotAllowed) a due check answers errSecInteractionNotAllowed instead of a sheet.
        query[kSecUseAuthenticationContext as String] = la.context
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (KeychainStatus(rawValue: status), result as? Data)
    }

    /// The access control of `item`: its accessibility class and `protection`'s flags.
    static func accessControl(_ item: KeychainItem, _ protection: BiometricProtection) -> SecAccessControl? {
        // The flags' values are Security's (BiometricProtection); an invalid combination answers nil, sent as errSecParam.
        SecAccessControlCreateWithFlags(
            nil, accessible(item.accessibility), SecAccessControlCreateFlags(rawValue: CFOptionFlags(protection.rawValue)), nil)
    }
}

/// An `LAContext` as the gate's authentication context.
///
/// `@unchecked Sendable`: `LAContext` is not `Sendable`; the gate configures it once at
/// creation, under its lock, and afterwards only passes it to `SecItem*` and calls `invalidate()`.
final class LAContextAuthentication: KeychainAuthenticationContext, @unchecked Sendable {
    let context: LAContext

    init(allowsInteraction: Bool, deviceUnlockReuse: TimeInterval, localizedReason: String) {
        context = LAContext()
        context.interactionNotAllowed = !allowsInteraction
        context.localizedReason = localizedReason
        #if !os(watchOS)
        // A device unlock this recent counts as the check (a timed window only; 0 means never).
        context.touchIDAuthenticationAllowableReuseDuration = deviceUnlockReuse
        #endif
    }

    func invalidate() {
        context.invalidate()
    }
}
#endif
