import Foundation

/// What redeeming an email-change code came to (``SessionClient/verifyEmailChange(email:code:)``).
///
/// A confirmed person's change needs two codes (one mailed to each address); the
/// first answers ``needsOtherConfirmation``. The last answers the same session,
/// continued with the updated user (``session``).
public struct EmailChangeVerification: Sendable, Hashable {
    /// The session after the change, when it is complete: the same session (same
    /// id, same refresh family), its user carrying the new address.
    public let session: Session?
    /// The server's words when one more confirmation is needed.
    public let message: String?

    /// True when the change is done and ``session`` carries the new address.
    public var isComplete: Bool { session != nil }
    /// True when the code was accepted and the other address still has to confirm:
    /// ask for the code mailed there. Nothing else changed.
    public var needsOtherConfirmation: Bool { session == nil }

    public init(session: Session?, message: String?) {
        self.session = session
        self.message = message
    }
}
