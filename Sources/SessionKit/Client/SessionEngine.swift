import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// The part of ``SessionClient`` that owns the session: what the account
/// flows in `Accounts/` may ask of it, and nothing more.
///
/// A flow takes the engine as an `isolated` parameter, so it runs on the
/// client's executor: the refresh protocol's interleavings (docs/PROTOCOL.md,
/// "The model") are the same as when the flow was a method of the actor. A
/// flow never assigns the session, the generation, a pending write or the
/// store's sequence: it hands a session to ``establish(_:keepingUnsaved:)``
/// (or ``establishImported(_:)``) and gets a ``SessionGeneration`` back.
///
/// Internal on purpose: an entry point that stores credentials, made public,
/// is what other SDKs document as unsafe to call (docs/DESIGN.md, "Where things live").
protocol SessionEngine: Actor {
    /// The backend the flows build their requests with and decode answers by.
    nonisolated var backend: any SessionBackend { get }
    /// Where flows say what they did (never a token).
    nonisolated var logger: Logger { get }

    /// The session in memory, if any (it may be expired).
    var currentSession: Session? { get }
    /// The device clock's now: for windows this device opened itself (an OAuth sign-in's).
    var now: Date { get }
    /// The server's now, by the clock offset learned from its `Date` headers: for token expiries.
    var serverNow: Date { get }
    /// True when `session`'s access token has expired (by the server's clock, with the leeway).
    func isExpired(_ session: Session) -> Bool

    /// Waits for the launch read, starting it if nobody has.
    func ensureRestored() async throws(SessionError)
    /// Waits for a launch read in progress, without starting one.
    func waitForRunningRestore() async

    /// Saves `session` (verified) as the store's next record and makes it current.
    ///
    /// - Parameter keepingUnsaved: the tokens cannot be had again (a spent
    ///   OAuth code): a failed save keeps them in memory and retries.
    /// - Returns: the sign-in's generation, for ``isCurrent(_:)`` after a later `await`.
    @discardableResult
    func establish(_ session: Session, keepingUnsaved: Bool) async throws(SessionError) -> SessionGeneration
    /// True while the sign-in of `generation` is still the current one.
    func isCurrent(_ generation: SessionGeneration) -> Bool
    /// The sign-in now, for a flow that sends with the session and must re-check it after the `await`.
    var currentGeneration: SessionGeneration { get }
    /// Confirms the session of `generation` in the background with backoff
    /// until the server answers: its user replaces ours, a refusal signs out.
    func checkInBackground(
        _ generation: SessionGeneration, confirming: @escaping SessionConfirmation)
    /// Ends the session here (and in the store).
    func endSession(_ reason: SessionClient.EndReason) async
    /// Signs out (docs/PROTOCOL.md, "What each failure does").
    func endSession(signingOut scope: SignOutScope) async throws(SessionError)

    /// The session, refreshed first if its access token has expired.
    func validSession() async throws(SessionError) -> Session
    /// Sends a request that carries no access token; 2xx body or a typed error.
    func sendUnauthorized(_ request: URLRequest, context: ResponseClassifier.Context) async throws(SessionError) -> Data
    /// Sends with the session's access token; one forced refresh and retry on a rejected token.
    /// `checked: true` (the flows) throws a non-2xx answer as a typed error; `false` (``SessionClient/send(_:)``)
    /// returns an answer the session did not act on as it came (docs/PROTOCOL.md).
    func authorizedSend(_ request: URLRequest, checked: Bool) async throws(SessionError) -> (Data, HTTPURLResponse)
    /// Sends through the transport, learning reachability and the server's clock.
    func sendObserved(_ request: URLRequest) async -> Result<(Data, HTTPURLResponse), SessionError>

    /// Makes `user` the session's user (memory, state, store, event).
    func replaceUser(with user: SessionUser) async
    /// Says the session is kept but the server cannot be reached.
    func markOffline(_ session: Session)

    /// Saves an OAuth sign-in's verifier and state (rule A) before the browser opens.
    func beginOAuth(_ pending: SessionClient.PendingOAuth) async throws(SessionError)
    /// The OAuth sign-in in progress: from memory or, after the app was killed, the store.
    func pendingOAuthSignIn() async throws(SessionError) -> SessionClient.PendingOAuth?
    /// Makes imported tokens the session by refreshing them once, under the store's lock.
    func establishImported(_ session: Session) async throws(SessionError) -> Session
    /// The import in progress, joined by a second import of the same tokens.
    var importFlight: ImportFlight? { get set }
}

/// A background confirmation of a new session: asks the server, on the engine, who it belongs to.
typealias SessionConfirmation = @Sendable (isolated any SessionEngine, Session) async throws(SessionError) -> SessionUser

extension SessionEngine {
    /// A flow's authorized request: a non-2xx answer is thrown as a typed error.
    func authorizedSend(_ request: URLRequest) async throws(SessionError) -> (Data, HTTPURLResponse) {
        try await authorizedSend(request, checked: true)
    }
}

/// One sign-in's life, as the engine counts them: a result that comes back
/// after an `await` is applied only while its generation is still current.
///
/// Opaque: only the engine (this file) can make one, so a flow can compare
/// generations but never forge or advance one.
struct SessionGeneration: Sendable, Hashable {
    fileprivate let value: UInt64
}

extension SessionClient {
    /// The generation now, as a token a flow can hold.
    var currentGeneration: SessionGeneration { SessionGeneration(value: generation) }

    func isCurrent(_ generation: SessionGeneration) -> Bool { generation.value == self.generation }
}

#if DEBUG
extension SessionGeneration {
    /// A generation for a test's recording engine, which has one sign-in only.
    static let forTests = SessionGeneration(value: 0)
}
#endif
