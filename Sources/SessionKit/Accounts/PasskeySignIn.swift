import Foundation
import Logging
import SessionCore

/// Signing in with a passkey: GoTrue's discoverable sign-in (docs/PASSKEYS.md).
///
/// Options from the server, the ceremony (the person picks a passkey), then
/// the signed answer, which the server trades for a session that is
/// established as a password sign-in's is. Nothing is written before the
/// server's answer: a cancelled or failed ceremony leaves the state as it was.
struct PasskeySignIn: Sendable {
    func signIn(using ceremony: any PasskeyCeremony, on engine: isolated any SessionEngine) async throws(SessionError) -> Session {
        let endpoints = try PasskeyEndpoints(engine.backend)
        let data: Data
        do {
            data = try await engine.sendUnauthorized(endpoints.authenticationOptions(), context: .request)
        } catch {
            throw PasskeyErrors.explained(error)
        }
        let challenge = try PasskeyChallenge<PasskeyRequestOptions>.decode(data)
        // Runs off the engine (the ceremony is nonisolated): refreshes and other calls go on meanwhile.
        let credential = try await ceremony.getAssertion(challenge.options)
        // The app gave up while the sheet was up: no session it no longer waits for.
        if Task.isCancelled { throw SessionError.cancelled }
        let verify = try endpoints.authenticationVerify(challengeID: challenge.challengeID, credential: credential)
        let session: Session
        do {
            session = try await engine.signIn(with: verify)
        } catch {
            throw PasskeyErrors.explained(error)
        }
        engine.logger.info("Signed in with a passkey")
        return session
    }
}
