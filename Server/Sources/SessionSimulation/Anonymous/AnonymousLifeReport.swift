/// What an anonymous life did, and whether it lost the account (issue 40,
/// item 6; docs/RELIABILITY.md, "Anonymous lives").
public struct AnonymousLifeReport: Sendable {
    /// The person later added a confirmed email (about half the lives).
    public var becamePermanent = false
    /// 1 when the client ended the session, or dropped its tokens, while the
    /// person was still anonymous and the server still held the user and the
    /// family: an account nobody can ever sign in to again.
    public var accountsLost = 0
    /// How the account was lost, for the report.
    public var lostHow: String?
    /// API answers `401 AUTH_REQUIRED` injected (a header dropped on the way).
    public var authRequiredAnswers = 0
    /// Of them, glitches that refused the retry's fresh token too (the SDK asks the auth server once more).
    public var lastingAuthRequiredAnswers = 0
    /// 401s of lasting glitches that reached the app as the API's answer (the session kept).
    public var lastingAuthRequiredShown = 0
    /// Saves the store refused (a full disk).
    public var storeWriteFailures = 0
    /// `signOut()` calls without the acknowledgement that the SDK refused (`carelessAnonymousSignOut`).
    public var signOutsRefused = 0
    /// The person restored a backup onto another device (the device event of row 9).
    public var restoredOnAnotherDevice = false

    public var violations: [String] {
        guard accountsLost > 0 else { return [] }
        return ["the anonymous account was lost while the server still held it (\(lostHow ?? "no detail"))"]
    }
}
