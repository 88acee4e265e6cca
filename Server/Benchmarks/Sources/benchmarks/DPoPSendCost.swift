import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitTesting

/// Issue 43, item 8: what a DPoP proof adds to `send`, beside a bearer `send`, in one run.
///
/// Both clients hold a valid token for the app's own origin (the path beside
/// the actor) and answer from an in-process transport, so the ratio is the
/// SDK's own cost: a P-256 signature, SHA-256 for `ath`, two JSON encodings
/// and base64url, against setting one header. Against a server that checks
/// proofs the same arm runs over loopback once the server half is merged.
enum DPoPSendCost {
    static func run(report: Report, quick: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dpop-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyStore = FileDPoPKeyStore(directory: directory)
        _ = try keyStore.createKey()
        let bearer = try await client(tokenType: "bearer", dpop: nil)
        let bound = try await client(tokenType: "DPoP", dpop: DPoPConfiguration(keyStore: keyStore))
        let request = URLRequest(url: URL(string: "https://api.example.com/v1/items?page=2")!)
        let sends = quick ? 2_000 : 20_000
        func arm(_ client: SessionClient) -> () async throws -> Double {
            {
                try await Stopwatch.seconds { for _ in 0..<sends { _ = try await client.send(request) } } / Double(sends)
            }
        }
        let rounds = try await Repeated.rounds(quick ? 5 : 7, [arm(bearer), arm(bound)])
        await report.add(
            "1", "send with a DPoP proof ÷ bearer send (in-process transport)", Spread(rounds.map { $0[1] / $0[0] }),
            detail: "\(sends) sends a round; bearer \(Format.micros(Stats.median(rounds.map { $0[0] }))), "
                + "with a proof \(Format.micros(Stats.median(rounds.map { $0[1] }))) per send")
        await report.add(
            "1", "DPoP proof per send (signature, ath, encoding)", Spread(rounds.map { $0[1] - $0[0] }), format: Format.micros)
    }

    private static func client(tokenType: String, dpop: DPoPConfiguration?) async throws -> SessionClient {
        let record = StoredSession(
            accessToken: String(repeating: "a", count: 600), refreshToken: "refresh-token-for-benchmarks", tokenType: tokenType,
            expiresAt: Date().addingTimeInterval(3600), lifetime: 3600)
        let transport = ClosureTransport { request in
            (Data(#"{"success":true,"data":{}}"#.utf8), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!)
        }
        var configuration = SessionClientConfiguration(
            backend: .goTrue(url: URL(string: "https://auth.example.com")!), store: InMemorySessionStore(record),
            transport: transport, launchValidation: .skip, automaticRefresh: false,
            authorizedOrigins: [URL(string: "https://api.example.com")!])
        configuration.observesAppLifecycle = false
        configuration.dpop = dpop
        let client = SessionClient(configuration: configuration)
        _ = try await client.restore()
        return client
    }
}
