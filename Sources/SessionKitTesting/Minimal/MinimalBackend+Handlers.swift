import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// The minimal dialect's endpoints.
extension MinimalBackend {
    func handle(_ request: URLRequest, _ endpoint: Endpoint) throws -> (Data, HTTPURLResponse) {
        switch endpoint {
        case .login: return try login(request)
        case .refresh: return try refresh(request)
        case .me: return try me(request)
        case .unknown: return try failure(request, 404, code: "NOT_FOUND", message: "no such route")
        }
    }

    private func login(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        let body = object(request.httpBody)
        guard let email = (body["email"] as? String)?.lowercased(), let password = body["password"] as? String,
            passwords[email] == password
        else { return try failure(request, 401, code: "INVALID_CREDENTIALS", message: "wrong email or password") }
        return try success(request, tokens(email: email, sessionID: UUID().uuidString.lowercased()))
    }

    private func refresh(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        guard let token = object(request.httpBody)["refresh_token"] as? String, !token.isEmpty else {
            return try failure(request, 400, code: "INVALID_REQUEST", message: "refresh_token is required")
        }
        // No grace: a token is honoured once; a rotated-out one is refused with the end code.
        guard let owner = live.removeValue(forKey: token) else {
            return try failure(request, 401, code: endCode, message: "refresh token is not valid")
        }
        return try success(request, tokens(email: owner.email, sessionID: owner.sessionID))
    }

    private func me(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        let header = request.value(forHTTPHeaderField: "Authorization") ?? ""
        guard header.hasPrefix("Bearer "), accessTokens.contains(String(header.dropFirst(7))),
            let claims = Self.claims(of: String(header.dropFirst(7))), let exp = claims.exp,
            exp > clock.now, let email = claims.email
        else { return try failure(request, 401, code: endCode, message: "access token is not valid") }
        return try success(request, ["id": userIDs[email] ?? "", "email": email])
    }

    private func tokens(email: String, sessionID: String) -> [String: Any] {
        let refresh = UUID().uuidString + UUID().uuidString
        let access = TestJWT.make(
            subject: userIDs[email] ?? "", sessionID: sessionID, email: email, issuedAt: clock.now,
            expiresAt: clock.now.addingTimeInterval(TimeInterval(accessTokenLifetime)), issuer: baseURL.absoluteString)
        live[refresh] = (email, sessionID)
        accessTokens.insert(access)
        return ["access_token": access, "refresh_token": refresh, "expires_in": accessTokenLifetime]
    }

    private func success(_ request: URLRequest, _ body: [String: Any]) throws -> (Data, HTTPURLResponse) {
        let framed: [String: Any] = shape == .wrapped ? ["success": true, "data": body] : body
        return try respond(request, 200, JSONSerialization.data(withJSONObject: framed), ["Content-Type": "application/json"])
    }

    private func failure(_ request: URLRequest, _ status: Int, code: String, message: String) throws -> (Data, HTTPURLResponse) {
        let body: [String: Any] =
            shape == .wrapped
            ? ["success": false, "error": ["code": code, "message": message]] : ["error": code, "message": message]
        return try respond(request, status, JSONSerialization.data(withJSONObject: body), ["Content-Type": "application/json"])
    }

    func respond(_ request: URLRequest, _ status: Int, _ body: Data, _ headers: [String: String]) throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw URLError(.badServerResponse) }
        return (body, response)
    }

    /// The claims of a token this backend issued; nil for anything else, which is answered 401.
    private static func claims(of token: String) -> JWTClaims? {
        do {
            return try UnverifiedJWT(token).claims
        } catch {
            return nil  // not a JWT: refused as an invalid access token, not hidden
        }
    }

    /// A JSON object body; anything else reads as an empty one, whose missing fields are answered 400/401.
    private func object(_ data: Data?) -> [String: Any] {
        guard let data else { return [:] }
        do {
            return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        } catch {
            return [:]  // not JSON: answered like a body without the fields the route needs
        }
    }
}
