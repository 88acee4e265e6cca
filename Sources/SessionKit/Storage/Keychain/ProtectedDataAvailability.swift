/// Whether the device's protected data (keychain items, protected files) can be read yet.
///
/// After a restart, nothing protected is readable until the first unlock, and
/// iOS may prewarm an app before that: the keychain then answers
/// `errSecItemNotFound` or `errSecInteractionNotAllowed` for an item that is
/// there. ``KeychainSessionStore`` asks this seam before it believes "no item",
/// so such a launch is never read as "signed out".
///
/// - Important: Conforming types answer from any isolation; the UIKit binding
///   hops to the main actor itself.
public protocol ProtectedDataAvailability: Sendable {
    /// True when protected data can be read now.
    var isAvailable: Bool { get async }

    /// Waits until protected data can be read, or until `timeout` has passed.
    ///
    /// - Parameter timeout: the longest wait; a person may not unlock for hours.
    /// - Returns: whether protected data is available when the wait ends.
    func waitUntilAvailable(timeout: Duration) async -> Bool
}
