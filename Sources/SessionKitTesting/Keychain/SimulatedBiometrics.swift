import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit

/// A device's Face ID or Touch ID, and the access control of its keychain items
/// (`kSecAttrAccessControl`), as Apple documents them; each rule names its page:
///
/// - **Adding** an item with access control never asks; **reading** its data or
///   **updating** it does, unless the call's `kSecUseAuthenticationContext` already
///   passed a check ("Accessing Keychain Items with Face ID or Touch ID": "the
///   keychain uses the context … without prompting the user again"). Deleting never asks.
/// - The person's answer to the sheet: success, cancel (`errSecUserCanceled`, -128)
///   or failure (`errSecAuthFailed`, -25293). Tests script it with ``answerNextChecks(_:)``;
///   unscripted checks succeed.
/// - A context made with `interactionNotAllowed` never shows the sheet: a call that
///   would ask answers `errSecInteractionNotAllowed` (-25308) (`LAContext.interactionNotAllowed`:
///   "the system returns an error … rather than prompting the user").
/// - `.biometryCurrentSet`: "The item is invalidated if fingers are added or removed for
///   Touch ID, or if the user re-enrolls for Face ID" (`SecAccessControlCreateFlags.biometryCurrentSet`).
///   The page names no status; here an invalidated item reads as absent (`errSecItemNotFound`),
///   updates answer `errSecItemNotFound`, an add of it `errSecDuplicateItem` (the item is still
///   there), and a delete removes it. `.userPresence` and `.biometryAny` items survive a change.
public final class SimulatedBiometrics: @unchecked Sendable {
    // Everything below is read and written under `lock`.
    private let lock = NSLock()
    private var enrollment = 0
    private var answers: [KeychainStatus] = []
    private var sheets = 0
    /// Per item (service/account/group): its protection and the enrollment it was written under.
    private var protected: [String: (protection: BiometricProtection, enrollment: Int)] = [:]

    public init() {}

    /// The person's answers to the next sheets, in order: `.success`, `.userCanceled` or `.authFailed`.
    public func answerNextChecks(_ statuses: KeychainStatus...) {
        lock.withLock { answers += statuses }
    }

    /// Fingers added or removed, or Face ID set up anew: `.biometryCurrentSet` items are invalidated.
    public func enrollAnew() {
        lock.withLock { enrollment += 1 }
    }

    /// How many times the sheet was shown.
    public var sheetsShown: Int { lock.withLock { sheets } }

    static func key(_ item: KeychainItem) -> String {
        "\(item.accessGroup ?? "-")/\(item.service)/\(item.account)"
    }

    func written(_ item: KeychainItem, protection: BiometricProtection) {
        lock.withLock { protected[Self.key(item)] = (protection, enrollment) }
    }

    func forget(_ item: KeychainItem) {
        lock.withLock { _ = protected.removeValue(forKey: Self.key(item)) }
    }

    /// True when `item` is protected and a biometry change invalidated it.
    func isInvalidated(_ item: KeychainItem) -> Bool {
        lock.withLock {
            guard let entry = protected[Self.key(item)] else { return false }
            return entry.protection.isInvalidatedByEnrollmentChange && entry.enrollment != enrollment
        }
    }

    /// True when `item` was written with access control.
    func isProtected(_ item: KeychainItem) -> Bool {
        lock.withLock { protected[Self.key(item)] != nil }
    }

    /// The check a call on a protected item needs: `nil` when it may proceed.
    func check(_ context: SimulatedAuthenticationContext) -> KeychainStatus? {
        if context.hasPassed { return nil }
        if context.isInvalidated { return .authFailed }
        guard context.allowsInteraction else { return .interactionNotAllowed }
        let answer: KeychainStatus = lock.withLock {
            sheets += 1
            return answers.isEmpty ? .success : answers.removeFirst()
        }
        guard answer == .success else { return answer }
        context.pass()
        return nil
    }
}

/// An `LAContext` of ``SimulatedBiometrics``: passes once its first check succeeds.
public final class SimulatedAuthenticationContext: KeychainAuthenticationContext, @unchecked Sendable {
    /// Whether it may show the sheet (not `interactionNotAllowed`).
    public let allowsInteraction: Bool
    /// `touchIDAuthenticationAllowableReuseDuration` it was given.
    public let deviceUnlockReuse: TimeInterval
    private let lock = NSLock()
    private var passed = false
    private var invalidated = false

    init(allowsInteraction: Bool, deviceUnlockReuse: TimeInterval) {
        self.allowsInteraction = allowsInteraction
        self.deviceUnlockReuse = deviceUnlockReuse
    }

    /// True once a check through it succeeded (and it was not invalidated).
    public var hasPassed: Bool { lock.withLock { passed && !invalidated } }
    var isInvalidated: Bool { lock.withLock { invalidated } }

    func pass() {
        lock.withLock { passed = true }
    }

    public func invalidate() {
        lock.withLock { invalidated = true }
    }
}
