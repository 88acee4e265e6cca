import Foundation
import Hummingbird
import NIOCore

/// A small Hummingbird app that behaves like Strava's OAuth endpoints:
/// `GET /oauth/authorize` (the consent screen, decided by ``Decision``) and
/// `POST /oauth/token` (form body; answers tokens and the `athlete`).
actor FakeStrava {
    enum Decision: Sendable { case approve, deny }
    enum TokenAnswer: Sendable { case normal, serverError, garbage, noAthlete }

    static let clientID = "12345"
    static let clientSecret = "strava-secret-for-tests"
    static let athleteID = 134_815

    var decision = Decision.approve
    var tokenAnswer = TokenAnswer.normal
    private(set) var tokenRequests = 0
    /// Codes issued by the consent screen; each is good once.
    private var codes: [String: String] = [:]
    /// What the last authorize request carried.
    private(set) var lastAuthorize: [String: String] = [:]

    func set(decision: Decision) { self.decision = decision }
    func set(tokenAnswer: TokenAnswer) { self.tokenAnswer = tokenAnswer }

    /// The consent screen: redirects to `redirect_uri` with `code` and `state`, or `error=access_denied`.
    func authorize(_ query: [String: String]) -> (status: HTTPResponse.Status, location: String?) {
        lastAuthorize = query
        guard query["client_id"] == Self.clientID, query["response_type"] == "code",
            let redirect = query["redirect_uri"], let state = query["state"]
        else { return (.badRequest, nil) }
        switch decision {
        case .deny:
            return (.found, "\(redirect)?state=\(state)&error=access_denied")
        case .approve:
            let code = UUID().uuidString
            codes[code] = redirect
            return (.found, "\(redirect)?state=\(state)&code=\(code)&scope=read,activity:read")
        }
    }

    /// The token endpoint, as Strava documents it.
    func token(_ form: [String: String]) -> (HTTPResponse.Status, String) {
        tokenRequests += 1
        switch tokenAnswer {
        case .serverError: return (.internalServerError, "<html>Strava is down</html>")
        case .garbage: return (.ok, "<html>not json</html>")
        case .normal, .noAthlete: break
        }
        guard form["client_id"] == Self.clientID, form["client_secret"] == Self.clientSecret,
            form["grant_type"] == "authorization_code", let code = form["code"], codes.removeValue(forKey: code) != nil
        else {
            return (.badRequest, #"{"message":"Bad Request","errors":[{"resource":"AuthorizationCode","field":"code","code":"invalid"}]}"#)
        }
        let athlete = tokenAnswer == .noAthlete ? "" :
            #","athlete":{"id":\#(Self.athleteID),"username":"marianne","firstname":"Marianne","lastname":"Teutenberg","profile":"https://example.com/m.jpg"}"#
        return (
            .ok,
            #"{"token_type":"Bearer","expires_at":1568775134,"expires_in":21600,"refresh_token":"strava-refresh","access_token":"strava-access"\#(athlete)}"#
        )
    }

    /// The Hummingbird router serving this fake.
    nonisolated func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("oauth/authorize") { request, _ -> Response in
            var query: [String: String] = [:]
            for (key, value) in request.uri.queryParameters { query[String(key)] = String(value) }
            let (status, location) = await self.authorize(query)
            var headers = HTTPFields()
            if let location { headers[.location] = location }
            return Response(status: status, headers: headers)
        }
        router.post("oauth/token") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 64 * 1024)
            let (status, text) = await self.token(Self.parseForm(String(buffer: body)))
            return Response(
                status: status, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        return router
    }

    static func parseForm(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }
}
