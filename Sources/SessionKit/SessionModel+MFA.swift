#if canImport(Observation)
import Foundation

extension SessionModel {
    /// True while the person is signed in at AAL1 and their account has a
    /// verified second factor: show the code screen (the session is kept
    /// meanwhile), then call ``verifySecondFactor(code:factorId:)``.
    public var needsSecondFactor: Bool { state.session?.needsSecondFactor ?? false }

    /// Verifies the authenticator code for the account's factor, raising the
    /// session to AAL2 (``SessionMFA/challengeAndVerify(factorId:code:)``).
    ///
    /// - Parameters:
    ///   - code: the code the authenticator app shows now.
    ///   - factorId: the factor to answer; `nil` picks the user's first verified TOTP factor.
    /// - Returns: whether it succeeded; otherwise ``lastError`` says why
    ///   (``SessionError/secondFactorCodeInvalid`` for a wrong code), and the session stays as it was.
    @discardableResult
    public func verifySecondFactor(code: String, factorId: String? = nil) async -> Bool {
        let chosen = factorId ?? state.session?.user?.factors?.first { $0.factorType == "totp" && $0.isVerified }?.id
        return await perform { client throws(SessionError) in
            guard let chosen else {
                throw SessionError.notFound.with(message: "This account has no verified second factor.")
            }
            _ = try await client.mfa.challengeAndVerify(factorId: chosen, code: code)
        }
    }
}
#endif
