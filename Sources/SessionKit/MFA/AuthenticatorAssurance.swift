/// Where a session stands with second factors, as supabase-swift's
/// `getAuthenticatorAssuranceLevel()` answers it.
///
/// When ``currentLevel`` is ``AuthenticatorAssuranceLevel/aal1`` and
/// ``nextLevel`` is ``AuthenticatorAssuranceLevel/aal2``, the person has a
/// verified factor and has not entered its code in this session: ask for it.
public struct AuthenticatorAssurance: Sendable, Hashable {
    /// The session's level (the access token's `aal`); `nil` when the token carries none.
    public var currentLevel: AuthenticatorAssuranceLevel?
    /// The level the session can reach: `aal2` once the user has a verified factor, else the current one.
    public var nextLevel: AuthenticatorAssuranceLevel?
    /// How the session proved who it is, newest first (the token's `amr`).
    public var currentAuthenticationMethods: [AMREntry]

    public init(
        currentLevel: AuthenticatorAssuranceLevel?, nextLevel: AuthenticatorAssuranceLevel?,
        currentAuthenticationMethods: [AMREntry]
    ) {
        self.currentLevel = currentLevel
        self.nextLevel = nextLevel
        self.currentAuthenticationMethods = currentAuthenticationMethods
    }

    /// True when the person has a verified factor whose code this session has not had yet.
    public var needsSecondFactor: Bool { currentLevel != .aal2 && nextLevel == .aal2 }
}
