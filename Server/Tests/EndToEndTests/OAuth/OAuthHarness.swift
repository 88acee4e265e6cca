import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HummingbirdTesting
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer

/// Fake Strava and the auth server, both live on loopback, and a client
/// pointed at the server. Runs on the system clock: the server's `Date`
/// header then agrees with the client's clock, and nothing here waits for
/// an expiry (expiry is covered by the server suite on a manual clock).
struct OAuthHarness: Sendable {
    static let appRedirect = "myapp://oauth-callback"

    let strava: FakeStrava
    let server: AuthServer
    let serverURL: URL
    let store: InMemorySessionStore
    let client: SessionClient
    /// Everything the client and the server logged, for "no secrets in logs" checks.
    let logs: LogCapture
    let browser = Browser()

    static func run(_ body: @escaping @Sendable (OAuthHarness) async throws -> Void) async throws {
        let strava = FakeStrava()
        try await Application(router: strava.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { stravaClient in
                let stravaPort = try require(stravaClient.port, "fake Strava port")
                var configuration = AuthServerConfiguration.testing(clock: SystemClock())
                configuration.oauthProviders = [
                    .strava(
                        clientID: FakeStrava.clientID, clientSecret: FakeStrava.clientSecret,
                        authorizeURL: URL(string: "http://127.0.0.1:\(stravaPort)/oauth/authorize")!,
                        tokenURL: URL(string: "http://127.0.0.1:\(stravaPort)/oauth/token")!)
                ]
                configuration.redirectAllowList = try RedirectAllowList([appRedirect, "http://127.0.0.1:*/callback"])
                let logs = LogCapture()
                let server = try await AuthServer(configuration: configuration, logger: logs.logger(label: "auth-server"))
                try await server.makeApplication().test(.live) { serverClient in
                    let port = try require(serverClient.port, "auth server port")
                    let serverURL = URL(string: "http://127.0.0.1:\(port)")!
                    let store = InMemorySessionStore()
                    let client = SessionClient(
                        configuration: SessionClientConfiguration(
                            backend: .goTrue(url: serverURL), store: store, logger: logs.logger()))
                    try await body(
                        OAuthHarness(
                            strava: strava, server: server, serverURL: serverURL, store: store, client: client, logs: logs))
                    await client.shutdown()
                }
            }
    }

    /// Opens `url` in the browser and follows it to the app's redirect.
    ///
    /// - Returns: the URL the app receives, and every hop.
    func openInBrowser(_ url: URL) async throws -> (callback: URL?, hops: [Browser.Answer]) {
        let hops = try await browser.follow(url) { $0.scheme == "myapp" || $0.path == "/callback" }
        return (hops.last?.location, hops)
    }

    /// `POST /auth/v1/token?grant_type=pkce` sent by hand (for replays and wrong verifiers).
    func exchange(code: String, verifier: String) async throws -> (status: Int, errorCode: String?) {
        var request = URLRequest(url: serverURL.appendingPathComponent("auth/v1/token"))
        request.url = URL(string: serverURL.absoluteString + "/auth/v1/token?grant_type=pkce")
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["auth_code": code, "code_verifier": verifier])
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, ServerErrorBody.parse(data)?.goTrueErrorCode?.rawValue)
    }

    static func query(_ url: URL?, _ name: String) -> String? {
        guard let url else { return nil }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }
}

struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
}

func require<T>(_ value: T?, _ what: String) throws -> T {
    guard let value else { throw HarnessFailure(description: "missing \(what)") }
    return value
}
