import SessionCore

extension Session {
    /// Where this session stands with second factors: the level of its access
    /// token (`aal`), the level its user's verified factors allow, and the
    /// token's `amr`. Read locally, with no request.
    public var assurance: AuthenticatorAssurance {
        let claims = AssuranceClaims(accessToken: accessToken)
        let current = claims?.level
        let hasVerifiedFactor = user?.factors?.contains { $0.isVerified } ?? false
        // As GoTrue's clients: the next level is aal2 once a factor is verified, else the current one.
        let next: AuthenticatorAssuranceLevel? = hasVerifiedFactor ? .aal2 : (current ?? .aal1)
        return AuthenticatorAssurance(
            currentLevel: current, nextLevel: next, currentAuthenticationMethods: claims?.methods ?? [])
    }

    /// True when this session's account has a verified second factor whose
    /// code has not been entered in it (the session is AAL1): show the code
    /// screen, then ``SessionMFA/challengeAndVerify(factorId:code:)``. The
    /// AAL1 session stays signed in meanwhile.
    public var needsSecondFactor: Bool { assurance.needsSecondFactor }
}
