import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import SessionCore
import Testing

@testable import SessionServer

/// Identity linking's tests: Strava on the OAuth suite's stub provider,
/// `--manual-linking` on unless asked otherwise.
enum Linking {
    static func server(
        _ database: TestDatabase = .sqlite, on: Bool = true, provider: StubProvider = StubProvider(athleteID: 501)
    ) async throws -> TestServer {
        try await TestServer.make(database) { configuration in
            provider.configure(&configuration)
            configuration.manualLinking = on
            configuration.anonymousSignIns = true
        }
    }

    static func authorizePath(skipRedirect: Bool = false) -> String {
        let redirect = "myapp://cb".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "/auth/v1/user/identities/authorize?provider=strava&redirect_to=\(redirect)"
            + "&code_challenge=\(OAuthFlowTests.challenge)&code_challenge_method=s256"
            + (skipRedirect ? "&skip_http_redirect=true" : "")
    }

    /// The provider's `state` of a link flow started with `bearer`.
    static func start(_ client: any TestClientProtocol, bearer: String) async throws -> String {
        let authorize = try await client.send(.get, authorizePath(), bearer: bearer)
        #expect(authorize.status == .found, "\(authorize.text)")
        let toProvider = try #require(authorize.headers[.location].flatMap(URL.init(string:)))
        return try #require(OAuthFlowTests.query(toProvider, "state"))
    }

    /// The provider sends the person back: where the server sends them on (the app's `redirect_to`).
    static func callback(_ client: any TestClientProtocol, state: String) async throws -> URL {
        let callback = try await client.send(.get, "/auth/v1/callback?code=provider-code&state=\(state)")
        #expect(callback.status == .found)
        return try #require(callback.headers[.location].flatMap(URL.init(string:)))
    }

    /// Authorize, callback: the app redirect.
    static func link(_ client: any TestClientProtocol, bearer: String) async throws -> URL {
        try await callback(client, state: try await start(client, bearer: bearer))
    }

    /// Rows in `table` (every session, ended or not).
    static func count(_ table: String, in test: TestServer) async throws -> Int {
        try await test.server.store.withTransaction { db in
            try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()?.decode(column: "n", as: Int.self)
        } ?? -1
    }

    static func sessionID(of token: String) throws -> String? { try payload(of: token)["session_id"] as? String }
}
