/// How a genuinely ended life ends (the person is really signed out).
public enum Ending: String, Sendable, Hashable, CaseIterable {
    /// The app is not opened for more than 30 days (the refresh token's idle lifetime).
    case idle
    /// The person signs out everywhere from another device (`scope=global`).
    case signedOutEverywhere
    /// The account is deleted from another device.
    case accountDeleted
}
