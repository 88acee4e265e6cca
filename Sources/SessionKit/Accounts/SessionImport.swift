import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Adopting a session the app already holds, as supabase-swift's `setSession`
/// (``LegacySessionMigration`` is the recipe): confirmed with the server, or
/// refreshed, before it is kept.
struct SessionImport: Sendable {
    let accessToken: String
    let refreshToken: String
    let expiresAt: Date?
    let user: SessionUser?

    /// The import, as one flight: a second import of the same refresh token
    /// while one runs joins it, and it runs in a task of its own, so a
    /// cancelled caller cannot cancel a refresh the server has already committed.
    func run(on engine: isolated any SessionEngine) async throws(SessionError) -> Session {
        if let flight = engine.importFlight, flight.refreshToken == refreshToken {
            engine.logger.info("Joining the import of the same session already in progress")
            return try await flight.task.value.get()
        }
        let task = Task { () async -> Result<Session, SessionError> in
            do throws(SessionError) {
                return .success(try await self.perform(on: engine))
            } catch {
                return .failure(error)
            }
        }
        engine.importFlight = ImportFlight(refreshToken: refreshToken, task: task)
        let result = await task.value
        if engine.importFlight?.task == task { engine.importFlight = nil }
        return try result.get()
    }

    func perform(on engine: isolated any SessionEngine) async throws(SessionError) -> Session {
        let logger = engine.logger
        let tokens = try ImportedTokens(
            accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt, serverNow: engine.serverNow)
        if tokens.expiryDisagrees {
            logger.notice("The imported expiry differs from the access token's own; using the token's")
        }
        await engine.waitForRunningRestore()
        let serverNow = engine.serverNow
        // An unknown expiry is "due now": refreshed before anything trusts it.
        let session = Session(
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
            expiresAt: tokens.expiresAt ?? serverNow, lifetime: tokens.lifetime, user: user ?? tokens.claimedUser)
        logger.info("Importing a session", metadata: ["refresh_token": "\(TokenRedaction.fingerprint(session.refreshToken))"])

        if tokens.expiresAt != nil, !engine.isExpired(session) {
            switch await confirm(session, on: engine) {
            case .confirmed(let confirmedUser):
                var confirmed = session
                if let confirmedUser { confirmed.user = confirmedUser }
                try await engine.establish(confirmed, keepingUnsaved: false)
                return engine.currentSession ?? confirmed
            case .unanswered(let error):
                // The server could not say; a valid token stands until it can.
                logger.notice("The imported session could not be confirmed now; keeping it", metadata: ["reason": "\(error)"])
                try await engine.establish(session, keepingUnsaved: false)
                if error == .network, let kept = engine.currentSession { engine.markOffline(kept) }
                return engine.currentSession ?? session
            case .rejected:
                // The refresh token is the arbiter: the server's answer to it decides.
                logger.notice("The server rejected the imported access token; refreshing once")
            }
        }
        return try await engine.establishImported(session)
    }

    enum Confirmation: Equatable {
        /// The server answered for the token (`nil`: this backend has no user endpoint to ask).
        case confirmed(SessionUser?)
        /// The server could not be asked, or its answer says nothing about the token.
        case unanswered(SessionError)
        /// The server (or something in between) refused the token.
        case rejected
    }

    /// Asks the user endpoint who the imported access token belongs to.
    func confirm(_ session: Session, on engine: isolated any SessionEngine) async -> Confirmation {
        let backend = engine.backend
        var request: URLRequest
        do {
            request = try backend.request(for: .currentUser)
        } catch {
            // No user endpoint (a custom backend without `meURL`): the expiry alone decides, as `.skip` does.
            return .confirmed(nil)
        }
        request.setValue(DPoPWire.authorization(session.accessToken, bound: session.isProofBound), forHTTPHeaderField: "Authorization")
        let data: Data
        let response: HTTPURLResponse
        switch await engine.sendObserved(request) {
        case .failure(let error):
            return .unanswered(error)
        case .success(let answer):
            (data, response) = answer
        }
        if SessionClient.rejectsToken(response, data) { return .rejected }
        guard (200..<300).contains(response.statusCode) else {
            let error = ResponseClassifier.error(status: response.statusCode, body: data, headers: response, context: .request)
            return error.isTransient ? .unanswered(error) : .rejected
        }
        do {
            return .confirmed(try backend.decodeUser(data))
        } catch {
            // A 200 that is not a user (a captive portal's page) proves nothing either way.
            return .unanswered(error)
        }
    }
}

/// One import in progress, keyed by the refresh token it imports.
struct ImportFlight {
    let refreshToken: String
    let task: Task<Result<Session, SessionError>, Never>
}
