import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ProcessTesting
import SessionKit
import Testing

/// Eight (or more) processes share one `FileSessionStore` through many
/// access token expiries: each expiry costs exactly one refresh on the
/// server, and no process ever sees `refresh_token_already_used`.
@Suite(.serialized)
struct MultiProcessRefreshTests {
    /// Short enough to go through many expiries, long enough that every
    /// probe of one round starts before the refreshed token expires again.
    static let accessTokenTTL = 4.0

    @Test func processesSharingAStoreRefreshOncePerExpiry() async throws {
        let folder = try Binaries.temporaryFolder("multi")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await AuthServerChild(
            arguments: [
                "serve", "--host", "127.0.0.1", "--port", "0", "--database", folder.appendingPathComponent("auth.sqlite").path,
                "--access-token-ttl", String(Self.accessTokenTTL),
            ],
            directory: folder.path, output: .merged(folder.appendingPathComponent("server.log").path))
        defer { server.kill() }
        let baseURL = server.url
        let storeDirectory = folder.appendingPathComponent("store")

        let client = SessionClient(
            configuration: SessionClientConfiguration(
                backend: .goTrue(url: baseURL, apiKey: "anon"), store: FileSessionStore(directory: storeDirectory),
                launchValidation: .skip, automaticRefresh: false))
        let signUp = try await client.signUp(email: "shared@example.com", password: "correct-horse-9")
        guard case .signedIn = signUp else {
            Issue.record("sign-up did not sign in: \(signUp)")
            return
        }
        await client.shutdown()

        let expiries = RunSize.expiries
        let probes = max(8, RunSize.probes)
        var adopted = 0
        for expiry in 1...expiries {
            let before = try #require(try await FileSessionStore(directory: storeDirectory).load())
            let expiresAt = try #require(before.expiresAt)
            // Real processes share no manual clock: wait (wall clock) until the token has expired.
            while Date() < expiresAt.addingTimeInterval(0.05) { try await Task.sleep(for: .milliseconds(20)) }

            let children = try (1...probes).map { index in
                try ChildProcess(
                    executable: Binaries.storeProbe, arguments: ["token", storeDirectory.path, baseURL.absoluteString],
                    output: .merged(folder.appendingPathComponent("probe-\(index).log").path))
            }
            var results: [ProbeResult] = []
            for child in children {
                let result = try await child.wait(limit: .seconds(60))
                #expect(result.status == 0, "expiry \(expiry): probe exited \(result.status): \(result.stdout.suffix(500))")
                results.append(try #require(try ProbeResult(result.stdout), "expiry \(expiry): no result line in:\n\(result.stdout.suffix(500))"))
            }
            let after = try #require(try await FileSessionStore(directory: storeDirectory).load())
            #expect(results.allSatisfy { $0.error == nil }, "expiry \(expiry): \(results.compactMap(\.error))")
            #expect(results.allSatisfy { $0.expired == 0 }, "expiry \(expiry): a probe saw sessionExpired")
            #expect(results.map(\.refreshes).reduce(0, +) == 1, "expiry \(expiry): \(results.map(\.refreshes)) refreshes")
            #expect(Set(results.compactMap(\.fingerprint)) == [ProbeResult.fingerprint(after.accessToken)], "expiry \(expiry)")
            #expect(after.refreshToken != before.refreshToken, "expiry \(expiry): the store was not refreshed")
            adopted += results.map(\.adopted).reduce(0, +)

            let counts = try await server.refreshOutcomes()
            #expect(counts == ["rotated": expiry], "expiry \(expiry): server refresh outcomes \(counts)")
        }
        let log = server.log
        #expect(!log.contains("refresh_token_already_used"))
        #expect(!log.contains("reuse"))
        print(
            "multi-process: \(probes) processes x \(expiries) expiries, \(expiries) refreshes on the server "
                + "(1 per expiry), \(adopted) adoptions of another process's refresh, 0 reuse errors")
    }
}

extension MultiProcessRefreshTests {
    /// The probes above start after the expiry, one after another, so most of them restore the
    /// session the first one refreshed and never wait for the lock. Here every probe restores the
    /// expired session first and asks at the same moment: the others wait for the lock while the
    /// first one's save reaches them as a store-change notification (docs/PROTOCOL.md, "Hearing
    /// other processes"), and must use what they heard rather than send the refresh token they
    /// restored (benchmark item 2's 8-process storm: 8 refreshes, 0 of 8 adopting).
    @Test func processesAskingAtOnceAdoptTheOneRefresh() async throws {
        let folder = try Binaries.temporaryFolder("at-once")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Long enough for eight probes to start and restore before the token counts as expired
        // (a quarter of its lifetime early: 2 s of 8).
        let server = try await AuthServerChild(
            arguments: [
                "serve", "--host", "127.0.0.1", "--port", "0", "--database", folder.appendingPathComponent("auth.sqlite").path,
                "--access-token-ttl", "8",
            ],
            directory: folder.path, output: .merged(folder.appendingPathComponent("server.log").path))
        defer { server.kill() }
        let storeDirectory = folder.appendingPathComponent("store")
        let client = SessionClient(
            configuration: SessionClientConfiguration(
                backend: .goTrue(url: server.url, apiKey: "anon"), store: FileSessionStore(directory: storeDirectory),
                launchValidation: .skip, automaticRefresh: false))
        let signUp = try await client.signUp(email: "at-once@example.com", password: "correct-horse-9")
        guard case .signedIn(let session) = signUp else {
            Issue.record("sign-up did not sign in: \(signUp)")
            return
        }
        await client.shutdown()
        let fireAt = session.expiresAt.addingTimeInterval(-2 + 0.25).timeIntervalSince1970
        let probes = max(8, RunSize.probes)
        let children = try (1...probes).map { index in
            try ChildProcess(
                executable: Binaries.storeProbe,
                arguments: ["token", storeDirectory.path, server.url.absoluteString, String(fireAt)],
                output: .merged(folder.appendingPathComponent("probe-\(index).log").path))
        }
        var results: [ProbeResult] = []
        for child in children {
            let result = try await child.wait(limit: .seconds(60))
            #expect(result.status == 0, "probe exited \(result.status): \(result.stdout.suffix(500))")
            results.append(try #require(try ProbeResult(result.stdout), "no result line in:\n\(result.stdout.suffix(500))"))
        }
        #expect(results.allSatisfy { $0.error == nil }, "\(results.compactMap(\.error))")
        #expect(results.map(\.refreshes).reduce(0, +) == 1, "\(results.map(\.refreshes)) refreshes")
        #expect(try await server.refreshOutcomes() == ["rotated": 1])
        #expect(!server.log.contains("refresh_token_already_used"))
    }
}

/// The JSON line a `token` probe prints.
struct ProbeResult {
    var fingerprint: String?
    var error: String?
    var refreshes: Int
    var adopted: Int
    var expired: Int

    /// `nil` when the output has no result line.
    init?(_ output: String) throws {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { return nil }
        fingerprint = object["fingerprint"] as? String
        error = object["error"] as? String
        refreshes = object["refreshes"] as? Int ?? -1
        adopted = object["adopted"] as? Int ?? -1
        expired = object["expired"] as? Int ?? -1
    }

    /// The same fingerprint `store-probe` computes.
    static func fingerprint(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined().prefix(12).description
    }
}
