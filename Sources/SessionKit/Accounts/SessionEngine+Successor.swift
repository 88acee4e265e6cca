import Foundation
import Logging
import SessionCore

/// The signed-in session a flow started from, to re-check after its `await`.
struct SignedInMark: Sendable {
    let generation: SessionGeneration
    let userID: String?
    let sessionID: String?
}

/// Answers that carry the signed-in session's successor (a confirmed email change, a
/// linked identity): the same session, its refresh token swapped by the server as a
/// second factor's verify swaps it (docs/ACCOUNTS.md).
extension SessionEngine {
    /// True when `answer` continues the session held now.
    ///
    /// With session ids (GoTrue's JWTs), the answer's id decides: the same id as the session held
    /// now is its successor, even when that session was signed in while the request was out (the
    /// request's retry after a rejected token carried its token, so the server swapped its refresh
    /// token, and dropping the answer would leave a rotated-out token to be caught as reuse). Any
    /// other id (the session before a sign-out) never replaces what is held. Without ids, the
    /// sign-in must be the one the flow started from.
    private func continues(_ current: Session?, with answer: Session, from mark: SignedInMark) -> Bool {
        guard let current, (answer.user?.id ?? current.user?.id) == current.user?.id else { return false }
        if let answerID = answer.sessionID, let currentID = current.sessionID { return answerID == currentID }
        return isCurrent(mark.generation) && current.user?.id == mark.userID
    }

    /// The session now, or ``SessionError/notSignedIn``.
    func markSignedIn() throws(SessionError) -> SignedInMark {
        guard let session = currentSession else { throw SessionError.notSignedIn }
        return SignedInMark(generation: currentGeneration, userID: session.user?.id, sessionID: session.sessionID)
    }

    /// Reads `data` as a session answer and establishes it (rule A, docs/PROTOCOL.md), as the
    /// second factor's verify does, if the session of `mark` is still the one signed in.
    ///
    /// - Throws: ``SessionError/notSignedIn`` when the person signed out (or in as someone
    ///   else) while the answer was on its way: their latest word wins, and this answer
    ///   must not sign them back in; ``SessionError/decoding`` for an answer that is no session.
    func establishSuccessor(of mark: SignedInMark, answer data: Data, what: String) async throws(SessionError) -> Session {
        let response = try BackendDecoding.validate(backend.decodeSession(data))
        noteDroppedFields(of: response)
        let session = Session(response: response, serverNow: serverNow)
        guard continues(currentSession, with: session, from: mark) else {
            logger.notice("The session changed while the server was asked; not applying its answer", metadata: ["step": "\(what)"])
            throw SessionError.notSignedIn.with(
                message: "You signed out before the server answered. Sign in again and try once more.")
        }
        if let before = mark.sessionID, let after = session.sessionID, before != after {
            // GoTrue answers the same session; a server that started a new one still signed in the same person.
            logger.notice("The server answered with a new session instead of the same one", metadata: ["step": "\(what)"])
        }
        // The refresh token before this answer is swapped out on the server: these tokens cannot be had again,
        // so a failed save keeps them in memory and retries (rule F, docs/PROTOCOL.md).
        try await establish(session, keepingUnsaved: true)
        return session
    }
}
