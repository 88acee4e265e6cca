import Foundation

/// One way the session proved who it is (an entry of the access token's
/// `amr` claim, GoTrue's `internal/models/amr.go`): `password`, `otp`,
/// `oauth`, `totp`, `recovery`, …
public struct AMREntry: Sendable, Hashable {
    /// The method, as GoTrue names it.
    public var method: String
    /// When it was used.
    public var timestamp: Date

    public init(method: String, timestamp: Date) {
        self.method = method
        self.timestamp = timestamp
    }
}
