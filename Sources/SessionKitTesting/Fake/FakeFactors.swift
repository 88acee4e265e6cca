import Foundation

/// The fake's second-factor records (GoTrue's `mfa_factors`, `mfa_challenges`
/// and the sessions' `aal`): in ``FakeAuthBackend``'s one stored property for them.
struct FakeFactors {
    struct Factor {
        let id: String
        let userID: String
        var friendlyName: String?
        var verified = false
        /// The code an authenticator app would show now; a new one after each accepted code (a code works once).
        var code: String
        let createdAt: Date
        var updatedAt: Date
    }

    struct Challenge {
        let factorID: String
        let expiresAt: Date
        var answered = false
    }

    var factors: [String: Factor] = [:]
    var challenges: [String: Challenge] = [:]
    /// Sessions raised to AAL2: session id → when the code was verified.
    var raised: [String: Date] = [:]
    /// Lose the next verify answer after it committed.
    var loseNextVerifyAnswer = false
    var verifyCount = 0

    static func newCode() -> String { String(format: "%06d", Int.random(in: 0..<1_000_000)) }
}
