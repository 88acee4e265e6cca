import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionServer

/// A provider token endpoint answered in memory, recording what the server sent.
final class StubProvider: OAuthHTTPClient, @unchecked Sendable {
    private let lock = NSLock()
    private var answer: OAuthHTTPResponse
    private var sent: [URLRequest] = []
    /// Answers for particular URLs (a user-info endpoint), before the default answer.
    private var byURL: [String: OAuthHTTPResponse] = [:]
    /// When set, every call fails without an answer (a timeout, a refused connection).
    private var failure: URLError?

    init(athleteID: Int = 42, email: String? = nil, emailVerified: Bool? = true) {
        answer = Self.strava(athleteID: athleteID, email: email, emailVerified: emailVerified)
    }

    /// `emailVerified` nil leaves `email_verified` out, as Strava and many OAuth-only providers do.
    static func strava(athleteID: Int, email: String?, emailVerified: Bool? = true) -> OAuthHTTPResponse {
        let verified = emailVerified.map { #","email_verified":\#($0)"# } ?? ""
        let emailField = email.map { #","email":"\#($0)""# + verified } ?? ""
        return OAuthHTTPResponse(
            status: 200,
            body: Data(
                #"{"access_token":"pa","refresh_token":"pr","expires_at":1,"athlete":{"id":\#(athleteID),"firstname":"Ada","lastname":"L"\#(emailField)}}"#.utf8))
    }

    func answer(with response: OAuthHTTPResponse) { lock.withLock { answer = response } }
    func answer(_ url: String, with response: OAuthHTTPResponse) { lock.withLock { byURL[url] = response } }
    func fail(with error: URLError) { lock.withLock { failure = error } }
    var requests: [URLRequest] { lock.withLock { sent } }

    private func record(_ request: URLRequest) -> (OAuthHTTPResponse, URLError?) {
        lock.withLock { () -> (OAuthHTTPResponse, URLError?) in
            sent.append(request)
            let chosen: OAuthHTTPResponse = request.url.flatMap { byURL[$0.absoluteString] } ?? answer
            return (chosen, failure)
        }
    }

    func send(_ request: URLRequest) async throws -> OAuthHTTPResponse {
        let (chosen, failing) = record(request)
        if let failing { throw failing }
        return chosen
    }
}

extension StubProvider {
    /// The configuration the OAuth suite runs with: Strava on this stub, an app redirect allowed.
    func configure(_ configuration: inout AuthServerConfiguration) {
        configuration.oauthProviders = [.strava(clientID: "cid", clientSecret: "csecret")]
        configuration.oauthHTTPClient = self
        configuration.externalURL = URL(string: "https://auth.example.com")
        configuration.redirectAllowList = .init(uncheckedForTests: ["myapp://cb", "https://app.example.com/auth/*"])
    }
}

extension RedirectAllowList {
    init(uncheckedForTests patterns: [String]) {
        do {
            try self.init(patterns)
        } catch {
            fatalError("bad test allow-list: \(error)")
        }
    }
}
