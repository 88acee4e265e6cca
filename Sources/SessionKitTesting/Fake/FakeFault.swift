import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// A fault the fake backend injects into the next requests to one endpoint.
public enum FakeFault: Sendable {
    /// No answer: the transport throws this `URLError` (`.notConnectedToInternet`, `.timedOut`, `.networkConnectionLost`).
    case drop(URLError.Code)
    /// Answer with this status, body and headers instead of handling the request.
    case status(Int, body: Data = Data(), headers: [String: String] = [:])
    /// Answer with a GoTrue error body `{"code": status, "error_code": code, "msg": message}`.
    case goTrueError(status: Int, code: GoTrueErrorCode, message: String = "fake error")
    /// Answer with a gateway envelope `{"success": false, "error": {...}}`.
    case gatewayError(status: Int, code: GatewayErrorCode, message: String? = nil, headers: [String: String] = [:])
    /// Wait until the gate opens, then handle the request normally.
    case hold(FakeGate)
    /// Handle the request (a refresh rotates), then wait until the gate opens
    /// before answering: an answer that arrives late, after other clients moved on.
    case holdAnswer(FakeGate)
    /// Handle the request (a refresh rotates), then lose the answer with this error.
    case commitThenDrop(URLError.Code = .networkConnectionLost)
    /// Handle the request, then replace the answer's body (status 200 unless given).
    case body(Data, status: Int = 200)
}

/// The endpoints the fake backend serves, for counting and fault injection.
public enum FakeEndpoint: String, Sendable, Hashable, CaseIterable {
    case signUp, passwordGrant, refresh, user, updateUser, logout
    case me, updateMe, deleteMe, sessions, revokeSession, activities
    /// A custom-backend refresh path (`/.netlify/functions/auth-refresh-token`).
    case customRefresh
    /// `POST /auth/v1/token?grant_type=pkce`.
    case pkceGrant
    /// `POST /auth/v1/token?grant_type=id_token` (Sign in with Apple).
    case idTokenGrant
    /// `POST /auth/v1/otp`, `/recover` and `/verify` (email codes and password reset).
    case otp, recover, verify
    /// `GET /auth/v1/reauthenticate` (a mailed nonce for a sensitive change).
    case reauthenticate
    case unknown
}
