/// Second factors of the signed-in user, as supabase-swift's `auth.mfa`
/// offers them, on GoTrue's wire (hosted Supabase and `auth-server` alike):
/// reach it as ``SessionClient/mfa``.
///
/// ```swift
/// let factor = try await client.mfa.enroll(params: MFAEnrollParams(issuer: "Acme", friendlyName: "Ada's phone"))
/// // show factor.totp?.qrCode, then ask for the first code:
/// try await client.mfa.challengeAndVerify(factorId: factor.id, code: "123456")
/// ```
///
/// No refusal here ends the session: a wrong code is
/// ``SessionError/secondFactorCodeInvalid``, a step the server wants AAL2
/// for is ``SessionError/secondFactorRequired``, and both keep the session (docs/MFA.md).
public struct SessionMFA: Sendable {
    let client: SessionClient

    /// Enrols a TOTP factor (unverified until a code is verified for it).
    ///
    /// - Throws: ``SessionError/secondFactorRequired`` when the user already
    ///   has a verified factor and this session is AAL1 (verify first);
    ///   ``SessionError/conflict`` or ``SessionError/invalidRequest`` for a
    ///   name taken or too many factors; ``SessionError/unsupported`` on a
    ///   backend other than GoTrue.
    public func enroll(params: MFAEnrollParams = MFAEnrollParams()) async throws(SessionError) -> MFAEnrollResponse {
        try await MFAFlow().enroll(params, on: client)
    }

    /// Opens a challenge of a factor, to answer with ``verify(factorId:challengeId:code:)``.
    public func challenge(factorId: String) async throws(SessionError) -> MFAChallengeResponse {
        try await MFAFlow().challenge(factorId: factorId, on: client)
    }

    /// Verifies a code; the server answers with the session at AAL2, which
    /// replaces the AAL1 session (saved before this returns).
    ///
    /// - Throws: ``SessionError/secondFactorCodeInvalid`` (the AAL1 session
    ///   stays), ``SessionError/network`` when no answer came (the AAL1 session
    ///   stays: ask for the next code and verify again).
    @discardableResult
    public func verify(factorId: String, challengeId: String, code: String) async throws(SessionError) -> Session {
        try await MFAFlow().verify(factorId: factorId, challengeId: challengeId, code: code, on: client)
    }

    /// ``challenge(factorId:)`` then ``verify(factorId:challengeId:code:)``.
    @discardableResult
    public func challengeAndVerify(factorId: String, code: String) async throws(SessionError) -> Session {
        try await MFAFlow().challengeAndVerify(factorId: factorId, code: code, on: client)
    }

    /// Removes a factor; a verified one needs an AAL2 session (else ``SessionError/secondFactorRequired``).
    @discardableResult
    public func unenroll(factorId: String) async throws(SessionError) -> MFAUnenrollResponse {
        try await MFAFlow().unenroll(factorId: factorId, on: client)
    }

    /// The user's factors, read from the server.
    public func listFactors() async throws(SessionError) -> MFAFactors {
        try await MFAFlow().listFactors(on: client)
    }

    /// The session's level now (`aal` of its access token), the level its
    /// verified factors allow, and how it proved who it is (`amr`).
    ///
    /// - Throws: ``SessionError/notSignedIn``, or a failed refresh's error when the access token had expired.
    public func getAuthenticatorAssuranceLevel() async throws(SessionError) -> AuthenticatorAssurance {
        try await MFAFlow().assurance(on: client)
    }
}
