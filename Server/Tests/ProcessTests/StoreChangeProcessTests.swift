import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ProcessTesting
import SessionKit
import Testing

/// Two real processes on one `FileSessionStore` (docs/PROTOCOL.md, "Hearing
/// other processes"): a sign-out in this one is published by a `store-probe
/// watch` child within a second, with no call from the child after its launch
/// read. The deaf twin, the same child with the notifier hidden, hears nothing:
/// what the first test measures is the notifier, not a poll.
@Suite(.serialized)
struct StoreChangeProcessTests {
    @Test func aSignOutInOneProcessIsPublishedByTheOtherWithinASecond() async throws {
        let heard = try await signOutHeard(by: [])
        let latency = try #require(heard, "the watching process never published the sign-out")
        #expect(latency < .seconds(1), "published after \(latency)")
        print("two processes: a sign-out in one published by the other after \(latency)")
    }

    @Test func aProcessWithoutTheNotifierHearsNothing() async throws {
        let heard = try await signOutHeard(by: ["deaf"])
        #expect(heard == nil, "a deaf process published a sign-out it could not have heard")
    }

    /// Signs in here, starts a watcher on the same store, signs out here, and
    /// returns how long from the sign-out's call until the watcher printed
    /// `state signedOut` (nil: not within 3 s of its return).
    private func signOutHeard(by extra: [String]) async throws -> Duration? {
        let folder = try Binaries.temporaryFolder("store-change")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await AuthServerChild(
            arguments: ["serve", "--host", "127.0.0.1", "--port", "0", "--database", folder.appendingPathComponent("auth.sqlite").path],
            directory: folder.path, output: .merged(folder.appendingPathComponent("server.log").path))
        defer { server.kill() }
        let store = folder.appendingPathComponent("store")
        let app = SessionClient(
            configuration: SessionClientConfiguration(
                backend: .goTrue(url: server.url, apiKey: "anon"), store: FileSessionStore(directory: store),
                launchValidation: .skip, automaticRefresh: false))
        let signUp = try await app.signUp(email: "two-processes@example.com", password: "correct-horse-9")
        guard case .signedIn = signUp else {
            Issue.record("sign-up did not sign in: \(signUp)")
            return nil
        }
        let watcher = try ChildProcess(
            executable: Binaries.storeProbe, arguments: ["watch", store.path, server.url.absoluteString] + extra,
            output: .merged(folder.appendingPathComponent("watcher.log").path))
        defer { _ = watcher.killAndReap() }
        try #require(try await Self.waitFor("restored signedIn", in: watcher, after: 0, limit: .seconds(30)) != nil, "\(watcher.stdout.suffix(500))")

        // Only what the watcher prints after the sign-out counts (its state stream began with the states of its launch).
        // Timed from the call, not its return: the watcher often hears the cleared
        // record before signOut() is back from telling the server.
        let before = watcher.stdout.utf8.count
        let clock = ContinuousClock()
        let start = clock.now
        try await app.signOut()
        let signOutTook = clock.now - start
        let heard = try await Self.waitFor("state signedOut", in: watcher, after: before, limit: .seconds(3))
        await app.shutdown()
        return heard.map { signOutTook + $0 }
    }

    /// How long until `line` appears in the child's output past its first
    /// `offset` bytes, polled every 10 ms.
    private static func waitFor(_ line: String, in child: ChildProcess, after offset: Int, limit: Duration) async throws -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < limit {
            let fresh = child.stdout.utf8.dropFirst(offset)
            if String(decoding: fresh, as: UTF8.self).split(separator: "\n").contains(where: { $0 == line }) { return clock.now - start }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}
