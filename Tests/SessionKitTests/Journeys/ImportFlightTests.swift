import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The import's refresh is one flight: several windows running the migration
/// at launch (iPad, macOS, visionOS) cause one refresh, and a cancelled
/// caller cannot lose a refresh the server has committed.
@Suite(.timeLimit(.minutes(1)))
struct ImportFlightTests {
    static let key = "supabase_session"

    /// A blob in a scripted source (no UserDefaults: several clients read it at once).
    final class Blob: LegacyKeyValueSource, @unchecked Sendable {
        private let lock = NSLock()
        private var value: Data?
        init(_ value: Data) { self.value = value }
        func data(forKey key: String) -> Data? { lock.withLock { value } }
        func removeValue(forKey key: String) { lock.withLock { value = nil } }
    }

    static func blob(_ held: TokenResponse) -> Data {
        Data(#"{"accessToken":"\#(held.accessToken)","refreshToken":"\#(held.refreshToken)","expiresAt":\#(held.expiresAt ?? 0)}"#.utf8)
    }

    /// As URLSession does: a cancelled task's request fails with `cancelled`, even after the server committed.
    struct CancellingTransport: HTTPTransport {
        let base: FakeAuthBackend
        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            let answer = try await base.send(request)
            if Task.isCancelled { throw URLError(.cancelled) }
            return answer
        }
    }

    @Test func threeWindowsOfOneClientCauseOneRefresh() async throws {
        let f = await Fixture.make()
        let held = try #require(await f.fake.issueSession(email: Fixture.email))
        let blob = Blob(Self.blob(held))
        f.expireAccessToken()
        let migration = LegacySessionMigration(legacyStore: blob, key: Self.key)
        async let first = migration.run(on: f.client)
        async let second = migration.run(on: f.client)
        async let third = migration.run(on: f.client)
        let outcomes = await [first, second, third]

        #expect(await f.fake.count(.refresh) == 1)
        let stored = try #require(try await f.store.load())
        #expect(stored.refreshToken != held.refreshToken)
        #expect(await f.fake.isFamilyActive(refreshToken: stored.refreshToken))
        for outcome in outcomes {
            switch outcome {
            case .imported(let session): #expect(session.refreshToken == stored.refreshToken)
            case .alreadyMigrated: break
            default: Issue.record("got \(outcome)")
            }
        }
        #expect(blob.data(forKey: Self.key) == nil)
    }

    /// Two windows with a client each on the same file store: its lock and a re-read make it one refresh.
    @Test func twoClientsOnOneStoreCauseOneRefresh() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        defer { _ = try? FileManager.default.removeItem(at: folder) }
        let a = await Fixture.make(store: FileSessionStore(directory: folder))
        let b = await Fixture.make(store: FileSessionStore(directory: folder), clock: a.clock, fake: a.fake)
        let held = try #require(await a.fake.issueSession(email: Fixture.email))
        let blob = Blob(Self.blob(held))
        a.expireAccessToken()
        let migration = LegacySessionMigration(legacyStore: blob, key: Self.key)
        async let first = migration.run(on: a.client)
        async let second = migration.run(on: b.client)
        _ = await [first, second]

        #expect(await a.fake.count(.refresh) == 1)
        let stored = try #require(try await a.store.load())
        #expect(await a.client.currentSession?.refreshToken == stored.refreshToken)
        #expect(await b.client.currentSession?.refreshToken == stored.refreshToken)
        #expect(await a.fake.isFamilyActive(refreshToken: stored.refreshToken))
    }

    /// The `.task` that ran the migration is torn down while the server's
    /// answer is on its way: the rotated session is still saved.
    @Test func aCancelledCallerDoesNotLoseTheCommittedRefresh() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let f = await Fixture.make(clock: clock, fake: fake, transport: CancellingTransport(base: fake))
        let held = try #require(await f.fake.issueSession(email: Fixture.email))
        let blob = Blob(Self.blob(held))
        f.expireAccessToken()
        let gate = FakeGate()
        await f.fake.inject(.holdAnswer(gate), on: .refresh)

        let run = Task { await LegacySessionMigration(legacyStore: blob, key: Self.key).run(on: f.client) }
        await gate.waitForArrivals(1)
        run.cancel()
        await gate.open()
        _ = await run.value

        #expect(await eventually { await f.client.currentSession?.refreshToken != held.refreshToken })
        let stored = try #require(try await f.store.load())
        #expect(stored.refreshToken != held.refreshToken)
        #expect(await f.fake.isFamilyActive(refreshToken: stored.refreshToken))
        #expect(await f.fake.count(.refresh) == 1)
    }
}
