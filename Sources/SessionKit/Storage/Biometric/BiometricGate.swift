import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// The biometric gate of one ``KeychainSessionStore``: which authentication
/// context the keychain calls use, and when a new check is due
/// (docs/PROTOCOL.md, "The biometric gate").
///
/// The window is `BiometricWindow`, a pure value fed the client's clock.
/// Tell the gate when the app changes place (``appDidEnterBackground()``,
/// ``appWillEnterForeground()``): in the background a due check is not asked,
/// it waits (`errSecInteractionNotAllowed`), and ``BiometricPolicy/Window/oncePerForeground``
/// closes. ``SessionClient`` tells it by itself when it observes the app's lifecycle.
///
/// `@unchecked Sendable`: the keychain calls it serves are synchronous
/// (`SecItemCopyMatching` blocks its thread), so its few fields are guarded by
/// a lock rather than an actor that a synchronous call could not await.
public final class BiometricGate: @unchecked Sendable {
    /// The policy it applies.
    public let policy: BiometricPolicy
    let keychain: any BiometricKeychainAPI
    let clock: any SessionClock

    // Everything below is read and written under `lock`.
    private let lock = NSLock()
    private var window: BiometricWindow
    private var context: (any KeychainAuthenticationContext)?
    private var contextPassed = false
    private var inForeground: Bool
    private var invalidated = false

    /// - Parameters:
    ///   - policy: when to ask.
    ///   - keychain: the keychain with access control.
    ///   - clock: the client's clock (a timed window is measured on it).
    ///   - inForeground: where the app starts: false for a background launch or an extension.
    public init(policy: BiometricPolicy, keychain: any BiometricKeychainAPI, clock: any SessionClock, inForeground: Bool = true) {
        self.policy = policy
        self.keychain = keychain
        self.clock = clock
        self.window = BiometricWindow(policy.window)
        self.inForeground = inForeground
    }

    /// The app went to the background: no sheet may be shown, and a once-per-foreground window closes.
    public func appDidEnterBackground() {
        lock.withLock {
            inForeground = false
            window.enteredBackground()
        }
    }

    /// The app came to the front: a due check may ask again (when the app reads the store).
    public func appWillEnterForeground() {
        lock.withLock { inForeground = true }
    }

    /// True when a read now would use an open gate, without asking.
    public var isOpen: Bool {
        let now = clock.now
        return lock.withLock { context != nil && contextPassed && window.allowsReuse(now: now) }
    }

    /// Starts a read of the record: keeps the context while the window allows it, else a new one.
    func beginRead() {
        let now = clock.now
        lock.withLock {
            if context != nil, contextPassed, window.allowsReuse(now: now) { return }
            replaceContext()
        }
    }

    /// The context the next keychain call uses (a new one if there is none).
    func currentContext() -> any KeychainAuthenticationContext {
        lock.withLock {
            if let context { return context }
            return replaceContext()
        }
    }

    /// Learns from a keychain call's answer: a success opens the window, a refusal drops the context.
    func record(_ status: KeychainStatus) {
        let now = clock.now
        lock.withLock {
            switch status {
            case .success:
                if !contextPassed { window.authenticated(at: now) }
                contextPassed = true
                invalidated = false
            case .userCanceled, .authFailed, .interactionNotAllowed:
                // The next read asks afresh, with UI if the app is in front by then.
                context?.invalidate()
                context = nil
                contextPassed = false
                window.close()
            default:
                break
            }
        }
    }

    /// The record was invalidated by a change of enrolled biometrics (seen by the store).
    func recordInvalidation() {
        lock.withLock { invalidated = true }
    }

    /// A new save replaced the invalidated record.
    func recordReplaced() {
        lock.withLock { invalidated = false }
    }

    /// True once an invalidated record was seen and no write replaced it.
    var sawInvalidatedRecord: Bool { lock.withLock { invalidated } }

    /// True when the current context passed a check: reading with it asks nothing.
    var hasPassedCheck: Bool { lock.withLock { context != nil && contextPassed } }

    /// True when the last context was made without interaction (the app in the background, an extension).
    var interactionAllowed: Bool { lock.withLock { policy.presentsUserInterface && inForeground } }

    @discardableResult
    private func replaceContext() -> any KeychainAuthenticationContext {
        // Called under `lock`.
        context?.invalidate()
        let fresh = keychain.makeAuthenticationContext(
            allowsInteraction: policy.presentsUserInterface && inForeground,
            deviceUnlockReuse: window.deviceUnlockReuse, localizedReason: policy.localizedReason)
        context = fresh
        contextPassed = false
        window.close()
        return fresh
    }
}
