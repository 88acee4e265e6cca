import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// Gateway endpoints of the fake (`/v1/...`, error envelope) and shared helpers.
extension FakeAuthBackend {
    enum AuthFailure: Error {
        /// No or unreadable credentials.
        case missing
        /// Expired, revoked or unknown token.
        case expired
    }

    func handleGateway(_ request: URLRequest, _ endpoint: FakeEndpoint) throws -> (Data, HTTPURLResponse) {
        let user: User
        let sessionID: String
        switch authenticate(request) {
        case .success(let value): (user, sessionID) = value
        case .failure(.missing): return try gatewayError(request, status: 401, code: .authRequired, message: nil)
        case .failure(.expired): return try gatewayError(request, status: 401, code: .sessionExpired, message: nil)
        }
        switch endpoint {
        case .me:
            return try json(request, SuccessEnvelope(data: user.record))
        case .updateMe:
            guard let update = decodeBody(ProfileUpdate.self, request) else {
                return try gatewayError(request, status: 400, code: .invalidRequest, message: "The body is not valid JSON.")
            }
            var record = user.record
            if let firstName = update.firstName { record.userMetadata["first_name"] = .string(firstName) }
            for (key, value) in update.metadata ?? [:] { record.userMetadata[key] = value }
            record.updatedAt = serverNow
            users[record.email?.lowercased() ?? ""]?.record = record
            return try json(request, SuccessEnvelope(data: record))
        case .deleteMe:
            guard case .accepted = checkProof(request, user: user) else {
                return try gatewayError(
                    request, status: 403, code: .reauthenticationRequired, message: "Confirm it is you: send a nonce or current_password.")
            }
            users[user.record.email?.lowercased() ?? ""] = nil
            for (key, family) in families where family.userID == user.record.id { families[key]?.revoked = true }
            return try respond(request, status: 204, body: Data())
        case .sessions:
            let list = families.values.filter { $0.userID == user.record.id && !$0.revoked }
                .sorted { $0.createdAt < $1.createdAt }
                .map {
                    DeviceSession(
                        id: $0.id, createdAt: $0.createdAt, lastRefreshedAt: $0.lastRefreshedAt, userAgent: "fake",
                        ip: "127.0.0.1", current: $0.id == sessionID)
                }
            return try json(request, SuccessEnvelope(data: list))
        case .revokeSession:
            let id = request.url?.lastPathComponent ?? ""
            guard let family = families[id], family.userID == user.record.id, !family.revoked else {
                return try gatewayError(request, status: 404, code: .notFound, message: nil)
            }
            families[id]?.revoked = true
            return try respond(request, status: 204, body: Data())
        default:
            return try json(request, SuccessEnvelope(data: [JSONValue]()))
        }
    }

    /// Reads `Authorization: Bearer`, accepting only tokens this fake issued, unexpired (60 s leeway) and unrevoked.
    func authenticate(_ request: URLRequest) -> Result<(User, String), AuthFailure> {
        guard let header = request.value(forHTTPHeaderField: "Authorization"), header.hasPrefix("Bearer ") else {
            return .failure(.missing)
        }
        let token = String(header.dropFirst("Bearer ".count))
        guard let sessionID = accessTokens[token] else { return .failure(.missing) }
        let claims: JWTClaims
        do {
            claims = try UnverifiedJWT(token).claims
        } catch {
            return .failure(.missing)
        }
        guard let exp = claims.exp, serverNow < exp.addingTimeInterval(SessionDefaults.serverLeeway),
            let family = families[sessionID], !family.revoked,
            let user = users.values.first(where: { $0.record.id == family.userID })
        else { return .failure(.expired) }
        return .success((user, sessionID))
    }

    func goTrueAuthError(_ request: URLRequest, _ failure: AuthFailure) throws -> (Data, HTTPURLResponse) {
        switch failure {
        case .missing: try goTrueError(request, status: 401, code: .noAuthorization, message: "This endpoint requires a Bearer token")
        case .expired: try goTrueError(request, status: 403, code: .badJWT, message: "invalid JWT: unable to parse or verify signature, token is expired")
        }
    }

    func decodeBody<T: Decodable>(_ type: T.Type, _ request: URLRequest) -> T? {
        guard let body = request.httpBody else { return nil }
        do {
            return try WireCoding.decoder().decode(T.self, from: body)
        } catch {
            return nil  // the handler answers 400 for an unreadable body
        }
    }

    func json(_ request: URLRequest, _ value: some Encodable, status: Int = 200) throws -> (Data, HTTPURLResponse) {
        try respond(request, status: status, body: WireCoding.encoder().encode(value), headers: ["Content-Type": "application/json"])
    }

    func goTrueError(_ request: URLRequest, status: Int, code: GoTrueErrorCode, message: String) throws -> (Data, HTTPURLResponse) {
        let body: [String: JSONValue] = ["code": .number(Double(status)), "error_code": .string(code.rawValue), "msg": .string(message)]
        return try json(request, body, status: status)
    }

    func gatewayError(
        _ request: URLRequest, status: Int, code: GatewayErrorCode, message: String?, headers: [String: String] = [:]
    ) throws -> (Data, HTTPURLResponse) {
        var headers = headers
        headers["Content-Type"] = "application/json"
        if status == 401, code != .authRequired { headers["WWW-Authenticate"] = "Bearer error=\"invalid_token\"" }
        return try respond(request, status: status, body: WireCoding.encoder().encode(ErrorEnvelope(code: code, message: message)), headers: headers)
    }

    func respond(_ request: URLRequest, status: Int, body: Data, headers: [String: String] = [:]) throws -> (Data, HTTPURLResponse) {
        var headers = headers
        if sendsDateHeader { headers["Date"] = ServerClockOffset.formatHTTPDate(serverNow) }
        guard let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw URLError(.badServerResponse) }
        return (body, response)
    }
}
