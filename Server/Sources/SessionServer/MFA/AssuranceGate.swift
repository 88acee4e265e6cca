import Foundation

/// Where GoTrue demands `aal2` once the user has a verified factor (docs/MFA.md):
/// a session still at `aal1` must step up first.
struct AssuranceGate: Sendable {
    let store: AuthStore

    /// Whether `userID` has a verified second factor.
    func hasVerifiedFactor(userID: String) async throws -> Bool {
        try await store.factors(userID: userID).contains(where: \.isVerified)
    }

    /// Refuses with `insufficient_aal` (`status`) when the user has a verified
    /// factor and the caller's session is not `aal2`.
    func requireAAL2IfEnrolled(_ identity: AuthenticatedIdentity, status: Int, _ message: String) async throws {
        try await requireAAL2IfEnrolled(userID: identity.userID, sessionID: identity.sessionID, status: status, message)
    }

    /// The same for a session known by its id (the account page's).
    func requireAAL2IfEnrolled(userID: String, sessionID: String?, status: Int, _ message: String) async throws {
        guard try await hasVerifiedFactor(userID: userID) else { return }
        guard let sessionID, let session = try await store.session(id: sessionID), session.userID == userID,
            session.aal == "aal2"
        else { throw AuthError.insufficientAAL(status: status, message) }
    }
}
