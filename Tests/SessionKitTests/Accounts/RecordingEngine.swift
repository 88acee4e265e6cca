import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore
import SessionKitTesting

@testable import SessionKit

/// A ``SessionEngine`` that records what a flow asked of it and sends through
/// a scripted transport: no store, no clock, no refresh machine, no fake
/// server. A flow tested against it is tested alone.
actor RecordingEngine: SessionEngine {
    nonisolated let backend: any SessionBackend
    nonisolated let logger = Logger(label: "SessionKit.tests.recording-engine")
    let transport: ScriptedTransport

    var currentSession: Session?
    var now = Date(timeIntervalSince1970: 1_800_000_000)
    var serverNow: Date { now }
    var importFlight: ImportFlight?
    /// The pending OAuth sign-in, as ``beginOAuth(_:)`` left it (or a test put it).
    var pendingOAuth: SessionClient.PendingOAuth?
    /// What ``establishImported(_:)`` answers (default: the session, as a refresh that kept it).
    var importedRefresh: Result<Session, SessionError>?

    /// Every call a flow made, in order.
    private(set) var calls: [Call] = []
    /// The background confirmation handed over, if any.
    private(set) var backgroundCheck: SessionConfirmation?

    enum Call: Equatable {
        case establish(Session, keepingUnsaved: Bool)
        case establishImported(Session)
        case endSession
        case signOut(SignOutScope)
        case replaceUser(SessionUser)
        case markOffline(Session)
        case beginOAuth
        case checkInBackground
    }

    init(backend: any SessionBackend = GoTrueBackend(url: URL(string: "https://auth.example.com")!), _ script: [ScriptedResponse] = []) {
        self.backend = backend
        self.transport = ScriptedTransport(script)
    }

    func set(current: Session?) { currentSession = current }
    func set(now: Date) { self.now = now }
    func set(pending: SessionClient.PendingOAuth?) { pendingOAuth = pending }
    func set(importedRefresh: Result<Session, SessionError>) { self.importedRefresh = importedRefresh }
    var requests: [URLRequest] { get async { await transport.requests } }

    func isExpired(_ session: Session) -> Bool { session.expiresAt <= now }
    func ensureRestored() async throws(SessionError) {}
    func waitForRunningRestore() async {}

    @discardableResult
    func establish(_ session: Session, keepingUnsaved: Bool) async throws(SessionError) -> SessionGeneration {
        calls.append(.establish(session, keepingUnsaved: keepingUnsaved))
        currentSession = session
        pendingOAuth = nil
        return SessionGeneration.forTests
    }

    func isCurrent(_ generation: SessionGeneration) -> Bool { true }
    var currentGeneration: SessionGeneration { .forTests }

    func checkInBackground(_ generation: SessionGeneration, confirming: @escaping SessionConfirmation) {
        calls.append(.checkInBackground)
        backgroundCheck = confirming
    }

    func endSession(_ reason: SessionClient.EndReason) async {
        calls.append(.endSession)
        currentSession = nil
    }

    func endSession(signingOut scope: SignOutScope) async throws(SessionError) {
        calls.append(.signOut(scope))
        currentSession = nil
    }

    func validSession() async throws(SessionError) -> Session {
        guard let currentSession else { throw .notSignedIn }
        return currentSession
    }

    func sendUnauthorized(_ request: URLRequest, context: ResponseClassifier.Context) async throws(SessionError) -> Data {
        let (data, response) = try await sendObserved(request).get()
        guard (200..<300).contains(response.statusCode) else {
            throw ResponseClassifier.error(status: response.statusCode, body: data, headers: response, context: context)
        }
        return data
    }

    func authorizedSend(_ request: URLRequest, checked: Bool) async throws(SessionError) -> (Data, HTTPURLResponse) {
        var request = request
        request.setValue("Bearer \(try await validSession().accessToken)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await sendObserved(request).get()
        return checked ? try SessionClient.check(data, response) : (data, response)
    }

    func sendObserved(_ request: URLRequest) async -> Result<(Data, HTTPURLResponse), SessionError> {
        do {
            return .success(try await transport.send(request))
        } catch {
            return .failure(ResponseClassifier.transportError(error))
        }
    }

    func replaceUser(with user: SessionUser) async {
        calls.append(.replaceUser(user))
        currentSession?.user = user
    }

    func markOffline(_ session: Session) { calls.append(.markOffline(session)) }

    func beginOAuth(_ pending: SessionClient.PendingOAuth) async throws(SessionError) {
        calls.append(.beginOAuth)
        pendingOAuth = pending
    }

    func pendingOAuthSignIn() async throws(SessionError) -> SessionClient.PendingOAuth? { pendingOAuth }

    func establishImported(_ session: Session) async throws(SessionError) -> Session {
        calls.append(.establishImported(session))
        let answer = importedRefresh ?? .success(session)
        if case .success(let kept) = answer { currentSession = kept }
        return try answer.get()
    }
}

/// Bodies and tokens the account-flow tests script.
enum AccountScript {
    static let user = SessionUser(id: "user-1", email: "ada@example.com", createdAt: nil, updatedAt: nil)

    /// An unsigned JWT with `sub` and `exp` (the client reads claims, never verifies them).
    static func jwt(sub: String, exp: Date) -> String {
        func part(_ json: String) -> String {
            Data(json.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return part(#"{"alg":"ES256","typ":"JWT"}"#) + "." + part(#"{"sub":"\#(sub)","exp":\#(Int(exp.timeIntervalSince1970))}"#) + ".c2ln"
    }

    static func userBody(_ user: SessionUser = user) -> ScriptedResponse {
        let body: Data
        do {
            body = try WireCoding.encoder().encode(user)
        } catch {
            body = Data()
        }
        return .answer(status: 200, body: body)
    }

    static func session(_ engine: RecordingEngine, user: SessionUser? = user) async -> TokenResponse {
        let now = await engine.now
        return TokenResponse(
            accessToken: jwt(sub: user?.id ?? "user-1", exp: now.addingTimeInterval(3600)), expiresIn: 3600,
            expiresAt: Int(now.timeIntervalSince1970) + 3600, refreshToken: "refresh-1", user: user)
    }
}
