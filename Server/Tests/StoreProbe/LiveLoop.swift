import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionKit

/// `store-probe live DIR SERVER_URL [SABOTAGE]`: one app (or extension)
/// process of `ProcessChaosTests`, asking for an access token again and again
/// until the test kills it with SIGKILL.
///
/// Each refresh's answer is held 150 ms before the client sees it, and each
/// save 100 ms before it starts, so a kill at a random moment often lands
/// where a session is most at risk: the server has rotated and the process
/// dies before the new token is on disk. Every step prints a line first, so
/// the test knows where each kill landed.
extension StoreProbe {
    static func live(directory: URL, server: URL, sabotage: String?) async {
        var logger = Logger(label: "store-probe")
        logger.logLevel = .warning
        var planted: Sabotage?
        if let sabotage {
            guard let named = Sabotage(name: sabotage) else { fail("no sabotage called \(sabotage)") }
            planted = named
        }
        let client = SessionClient(
            configuration: SessionClientConfiguration(
                backend: .goTrue(url: server, apiKey: "anon"),
                store: AnnouncedStore(base: FileSessionStore(directory: directory)),
                transport: MiddlewareTransport(base: URLSessionTransport(), middlewares: [HeldRefreshAnswer()]),
                launchValidation: .skip, jitter: .fixed(0), automaticRefresh: false, logger: logger),
            sabotage: planted)
        let events = client.events
        Task {
            for await event in events {
                switch event {
                case .sessionExpired: say("event sessionExpired")
                case .signedOut: say("event signedOut")
                case .tokenRefreshed: say("event refreshed")
                case .adoptedStoredSession: say("event adopted")
                default: break
                }
            }
        }
        do {
            let state = try await client.restore()
            say("restored \(state.isSignedIn ? "signedIn" : "signedOut")")
        } catch {
            say("error restore: \(error)")
        }
        while true {
            do {
                say("ok \(fingerprint(try await client.accessToken()))")
            } catch {
                say("error \(String(describing: error).prefix(200))")
            }
            do {
                try await Task.sleep(for: .milliseconds(40))
            } catch {
                return
            }
        }
    }
}

/// Holds each refresh's answer before the client sees it (see `live`).
private struct HeldRefreshAnswer: TransportMiddleware {
    func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        guard request.url?.query?.contains("grant_type=refresh_token") == true else { return try await next(request) }
        StoreProbe.say("refresh-sent")
        let answer = try await next(request)
        StoreProbe.say("refresh-answered \(answer.1.statusCode)")
        try await Task.sleep(for: .milliseconds(150))
        StoreProbe.say("refresh-handed-over")
        return answer
    }
}

/// Announces each save and holds it before it starts (see `live`).
private struct AnnouncedStore: SessionStore {
    let base: FileSessionStore

    func load() async throws(SessionStoreError) -> StoredSession? { try await base.load() }

    func save(_ session: StoredSession) async throws(SessionStoreError) {
        StoreProbe.say("saving")
        do {
            try await Task.sleep(for: .milliseconds(100))
        } catch {
            throw .writeFailed("cancelled")
        }
        try await base.save(session)
        StoreProbe.say("saved")
    }

    func clear() async throws(SessionStoreError) {
        StoreProbe.say("clearing")
        try await base.clear()
    }

    func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock { try await base.lockForRefresh() }

    func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
        try await base.lockForRefresh(waitingAtMost: seconds)
    }
}
