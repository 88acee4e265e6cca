import Foundation

/// When the session's Keychain item asks for Face ID, Touch ID or the passcode:
/// an opt-in of ``KeychainSessionStore`` (docs/PROTOCOL.md, "The biometric gate").
///
/// The four windows mean what Auth0.swift's `BiometricPolicy` cases mean:
/// ``Window/everyRead`` (`always`), ``Window/oncePerLaunch`` (`default`),
/// ``Window/timeout(_:)`` (`session(timeoutInSeconds:)`) and
/// ``Window/oncePerForeground`` (`appLifecycle`). Within a window one
/// authentication context (`LAContext`) is reused for every read and write.
///
/// A cancelled, failed or invalidated check never signs anyone out: the record
/// stays stored, the state is ``SessionState/locked(_:)``, and the next check
/// that succeeds continues the session. Only the server ends a session.
public struct BiometricPolicy: Sendable, Hashable {
    /// How long one successful check opens the gate.
    public struct Window: Sendable, Hashable, CustomStringConvertible {
        enum Kind: Sendable, Hashable {
            case everyRead, oncePerLaunch, timeout(TimeInterval), oncePerForeground
        }

        let kind: Kind

        /// Every read of the stored session asks (Auth0's `always`); a save right after a read uses that read's check.
        public static let everyRead = Window(kind: .everyRead)
        /// The first read after launch asks; the gate stays open until the process ends (Auth0's `default`).
        public static let oncePerLaunch = Window(kind: .oncePerLaunch)
        /// A check opens the gate for `seconds` of the client's clock (Auth0's `session(timeoutInSeconds:)`).
        public static func timeout(_ seconds: TimeInterval) -> Window { Window(kind: .timeout(seconds)) }
        /// A check opens the gate until the app next goes to the background (Auth0's `appLifecycle`).
        public static let oncePerForeground = Window(kind: .oncePerForeground)

        public var description: String {
            switch kind {
            case .everyRead: "every read"
            case .oncePerLaunch: "once per launch"
            case .timeout(let seconds): "once per \(Int(seconds)) s"
            case .oncePerForeground: "once per foreground"
            }
        }
    }

    /// How long a check opens the gate.
    public var window: Window
    /// The item's access control (`SecAccessControlCreateFlags`).
    public var protection: BiometricProtection
    /// The reason the system sheet shows (the `localizedReason` of `LAContext`).
    public var localizedReason: String
    /// False in an app extension or a widget: the keychain is asked without
    /// UI (`LAContext.interactionNotAllowed`) and a closed gate waits.
    public var presentsUserInterface: Bool

    /// - Parameters:
    ///   - window: how long a check opens the gate.
    ///   - protection: `.biometryCurrentSet` (the default: re-enrolling biometrics invalidates the item)
    ///     or `.userPresence` (biometrics or the passcode).
    ///   - localizedReason: what the system sheet says.
    ///   - presentsUserInterface: false in an extension or a widget, which must never present UI.
    public init(
        window: Window, protection: BiometricProtection = .biometryCurrentSet,
        localizedReason: String = "Unlock your account", presentsUserInterface: Bool = true
    ) {
        self.window = window
        self.protection = protection
        self.localizedReason = localizedReason
        self.presentsUserInterface = presentsUserInterface
    }
}
