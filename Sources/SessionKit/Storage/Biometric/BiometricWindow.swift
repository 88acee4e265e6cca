import Foundation

/// Whether the authentication context of the last successful check may be
/// reused now: the policy's window as a pure value, fed the current date
/// (docs/PROTOCOL.md, "The biometric gate"). No clock of its own, no `Date()`.
struct BiometricWindow: Sendable, Hashable {
    let window: BiometricPolicy.Window
    /// When the current context was last authenticated; `nil` before any check (or after one was dropped).
    private(set) var authenticatedAt: Date?
    /// The app went to the background since that check.
    private(set) var backgroundedSinceCheck = false

    init(_ window: BiometricPolicy.Window) {
        self.window = window
    }

    /// True when a read now may use the context that passed the last check, without asking.
    func allowsReuse(now: Date) -> Bool {
        guard let authenticatedAt else { return false }
        switch window.kind {
        case .everyRead:
            return false
        case .oncePerLaunch:
            return true
        case .timeout(let seconds):
            // A clock set back (before the check) closes the gate rather than stretching it.
            let elapsed = now.timeIntervalSince(authenticatedAt)
            return elapsed >= 0 && elapsed < seconds
        case .oncePerForeground:
            return !backgroundedSinceCheck
        }
    }

    /// A check succeeded now.
    mutating func authenticated(at now: Date) {
        authenticatedAt = now
        backgroundedSinceCheck = false
    }

    /// The app went to the background.
    mutating func enteredBackground() {
        backgroundedSinceCheck = true
    }

    /// The context was dropped (a cancel, a failure, a new context): the next read asks.
    mutating func close() {
        authenticatedAt = nil
    }

    /// `LAContext.touchIDAuthenticationAllowableReuseDuration` for this window: the
    /// seconds a recent device unlock counts as a check, capped at Apple's maximum
    /// (`LATouchIDAuthenticationMaximumAllowableReuseDuration`, 300 s); 0 ("isn't reused",
    /// Apple's default) except for a timed window.
    var deviceUnlockReuse: TimeInterval {
        if case .timeout(let seconds) = window.kind { return min(max(seconds, 0), 300) }
        return 0
    }
}
