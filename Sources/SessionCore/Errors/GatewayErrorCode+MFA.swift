extension GatewayErrorCode {
    /// Signed in at AAL1 where the route needs AAL2: keep the session, ask
    /// for the second factor, never refresh or sign out (docs/MFA.md).
    public static let mfaRequired = GatewayErrorCode("MFA_REQUIRED")
}
