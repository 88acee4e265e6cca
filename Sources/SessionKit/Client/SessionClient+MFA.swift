extension SessionClient {
    /// Second factors of the signed-in user: enrol TOTP, challenge, verify,
    /// list, remove, and the assurance level (docs/MFA.md).
    public nonisolated var mfa: SessionMFA { SessionMFA(client: self) }
}
