import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// A 307/308 must not replay a refresh token, a password or the access token
/// to the `Location` host. Against a real loopback server and the real
/// URLSession (FoundationNetworking here), not only the scripted transport.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct RedirectTests {
    /// Sends to the fake for the auth server, to the real network for everything else.
    struct Routing: HTTPTransport {
        let fake: FakeAuthBackend
        let network: URLSessionTransport
        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            if request.url?.host == fake.baseURL.host, request.url?.port == fake.baseURL.port {
                return try await fake.send(request)
            }
            return try await network.send(request)
        }
    }

    @Test func theDefaultTransportReturnsA308InsteadOfReplayingTheRequest() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var request = URLRequest(url: server.redirect(to: server.otherOrigin.appendingPathComponent("stolen")))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"refresh_token":"Qv7mZk2pXw9L"}"#.utf8)
        request.setValue("Bearer access-secret", forHTTPHeaderField: "Authorization")

        let (_, response) = try await URLSessionTransport().send(request)
        #expect(response.statusCode == 308)
        let seen = try await server.seen()
        #expect(seen.map(\.path) == [request.url?.absoluteString.replacingOccurrences(of: server.base.absoluteString, with: "")])
        #expect(!seen.contains { $0.path.hasPrefix("/stolen") })
    }

    @Test func sendNeverFollowsARedirectOutOfTheAuthorizedOrigins() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let f = await Fixture.make(
            clock: clock, fake: fake, transport: Routing(fake: fake, network: URLSessionTransport()),
            authorizedOrigins: [fake.baseURL, server.base])
        let session = try await f.signIn()

        let away = server.redirect(to: server.otherOrigin.appendingPathComponent("stolen"))
        await #expect(throws: SessionError.originNotAllowed) { try await f.client.send(URLRequest(url: away)) }
        // Inside the authorized origins the client follows it itself, token attached.
        let (data, response) = try await f.client.send(URLRequest(url: server.redirect(to: server.base.appendingPathComponent("moved"))))
        #expect(response.statusCode == 200)
        #expect(String(data: data, encoding: .utf8) == #"{"ok":true}"#)

        let seen = try await server.seen()
        #expect(!seen.contains { $0.path.hasPrefix("/stolen") })
        let moved = try #require(seen.first { $0.path == "/moved" })
        #expect(moved.authorization == "Bearer \(session.accessToken)")
        #expect(await f.client.currentSession == session)
    }

    /// The full-size chaos run's one broken invariant: the device clock had
    /// jumped while the app was suspended, the expired token went out (nothing
    /// could tell), and a proxy's 302 told the server's clock in its `Date`.
    /// The follow-up copied the same header: an expired token sent while the
    /// server's clock was known. It must carry a token refreshed first.
    @Test func aFollowedRedirectIsAuthorizedAfreshByTheClockItTaught() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let log = RequestLog()
        let transport = ClosureTransport { request in
            guard let path = request.url?.path, path.hasPrefix("/portal") else { return try await fake.send(request) }
            log.append(request)
            // A proxy in front of the auth server, on its clock: two hours past the token's expiry.
            let date = ServerClockOffset.formatHTTPDate(clock.now.addingTimeInterval(7_200))
            let status = path == "/portal" ? 302 : 200
            let headers = ["Date": date, "Location": "/portal/login"]
            return (Data(#"{"ok":true}"#.utf8), HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: nil, headerFields: headers)!)
        }
        let f = await Fixture.make(clock: clock, fake: fake, transport: transport)
        let session = try await f.signIn()
        await fake.setClockSkew(7_200)

        let (_, response) = try await f.client.send(URLRequest(url: fake.baseURL.appendingPathComponent("portal")))
        #expect(response.statusCode == 200)
        let sent = log.all.map { $0.value(forHTTPHeaderField: "Authorization") }
        // The first send could not know; the follow-up could.
        #expect(sent.first == "Bearer \(session.accessToken)")
        let refreshed = try #require(await f.client.currentSession)
        #expect(refreshed.accessToken != session.accessToken)
        #expect(sent.dropFirst() == ["Bearer \(refreshed.accessToken)"])
        #expect(await fake.count(.refresh) == 1)
    }
}
