import Foundation
import SessionCore

/// Who asks ``FactorService``: the user and session of a bearer token, or of
/// the account page's browser (docs/MFA.md, "The account page").
struct FactorCaller: Sendable, Hashable {
    var userID: String
    var sessionID: String?

    init(userID: String, sessionID: String?) {
        self.userID = userID
        self.sessionID = sessionID
    }

    init(_ identity: AuthenticatedIdentity) {
        self.init(userID: identity.userID, sessionID: identity.sessionID)
    }
}

/// The API's calls, by bearer token, and the page's own.
extension FactorService {
    func enroll(_ request: EnrollFactorRequest, identity: AuthenticatedIdentity, ip: String?) async throws -> EnrollFactorResponse {
        try await enroll(request, identity: FactorCaller(identity), ip: ip)
    }

    func challenge(factorID: String, identity: AuthenticatedIdentity, ip: String?) async throws -> ChallengeFactorResponse {
        try await challenge(factorID: factorID, identity: FactorCaller(identity), ip: ip)
    }

    func verify(
        factorID: String, _ request: VerifyFactorRequest, identity: AuthenticatedIdentity, ip: String?, binding: String? = nil
    ) async throws -> TokenResponse {
        try await verify(factorID: factorID, request, identity: FactorCaller(identity), ip: ip, binding: binding)
    }

    func unenroll(factorID: String, identity: AuthenticatedIdentity, ip: String?) async throws -> UnenrollFactorResponse {
        try await unenroll(factorID: factorID, identity: FactorCaller(identity), ip: ip)
    }

    /// The page's "type the code": a challenge answered at once, so the
    /// same rules hold as for the API (replay, budget, expiry).
    func challengeAndVerify(factorID: String, code: String, caller: FactorCaller, ip: String?) async throws -> TokenResponse {
        let challenge = try await challenge(factorID: factorID, identity: caller, ip: ip)
        return try await verify(factorID: factorID, VerifyFactorRequest(challengeID: challenge.id, code: code), identity: caller, ip: ip)
    }

    /// Renames one of the caller's factors; a verified one needs an `aal2`
    /// session, as removing it does (the page's rule; GoTrue has no rename).
    func rename(factorID: String, to name: String?, caller: FactorCaller, ip: String?) async throws {
        guard let name = try Self.checked(name, field: "friendly_name", maximum: 256) else {
            throw AuthError.invalidRequest(field: "friendly_name", "Type a name for the authenticator.")
        }
        try await AssuranceGate(store: store).requireAAL2IfEnrolled(
            userID: caller.userID, sessionID: caller.sessionID, status: 403, "AAL2 required to rename a factor")
        guard try await store.renameFactor(id: factorID.lowercased(), userID: caller.userID, to: name, ip: ip, now: clock.now)
        else { throw AuthError.mfaFactorNotFound }
    }
}
