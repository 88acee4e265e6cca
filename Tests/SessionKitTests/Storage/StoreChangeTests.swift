import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// Processes sharing a store hear each other at once (issue 42, item 2;
/// docs/PROTOCOL.md, "Hearing other processes"). Two clients on one folder
/// stand for two processes: each watches the folder as a process does.
@Suite(.timeLimit(.minutes(1)))
struct StoreChangeTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sessionkit-\(UUID().uuidString)")
    }

    /// The sign-out test holds the bound, one second; the others, which pin what is adopted
    /// rather than how fast, allow a loaded CI machine more (each takes about 0.3 s alone).
    static let loadedMachineBound = 5.0

    /// A client on `store` as a process would make one (the test Fixture wraps its store, hiding the notifier).
    static func process(
        _ store: some SessionStore, _ fake: FakeAuthBackend, _ clock: ManualClock,
        launchValidation: SessionClientConfiguration.LaunchValidation = .skip
    ) -> SessionClient {
        SessionClient(configuration: fake.clientConfiguration(
            clock: clock, store: store, launchValidation: launchValidation, automaticRefresh: false))
    }

    static func signIn(_ client: SessionClient) async throws -> Session {
        try await client.signIn(email: Fixture.email, password: Fixture.password)
    }

    static func fake(_ clock: ManualClock) async -> FakeAuthBackend {
        let fake = FakeAuthBackend(clock: clock)
        await fake.createUser(email: Fixture.email, password: Fixture.password)
        return fake
    }

    /// The first state of `client` that `matches`, waiting at most `seconds` of real time:
    /// the bound under test is the file system's, not the client's clock.
    static func state(
        of client: SessionClient, within seconds: Double, where matches: @escaping @Sendable (SessionState) -> Bool
    ) async -> SessionState? {
        let states = client.states
        return await withTaskGroup(of: SessionState?.self) { group in
            group.addTask {
                for await state in states where matches(state) { return state }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func aSignOutInOneProcessIsPublishedByTheOtherWithinASecond() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock()
        let fake = await Self.fake(clock)
        let app = Self.process(FileSessionStore(directory: folder), fake, clock)
        _ = try await Self.signIn(app)
        let widget = Self.process(FileSessionStore(directory: folder), fake, clock)
        #expect(try await widget.restore().session != nil)
        try await app.signOut()
        // No call on the widget's client: it hears the folder and re-reads.
        let heard = await Self.state(of: widget, within: 1) { $0 == .signedOut }
        #expect(heard == .signedOut)
        #expect(await widget.currentSession == nil)
        await app.shutdown()
        await widget.shutdown()
    }

    @Test func aRefreshInOneProcessIsAdoptedByTheOtherWithoutARefreshOfItsOwn() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock()
        let fake = await Self.fake(clock)
        let app = Self.process(FileSessionStore(directory: folder), fake, clock)
        _ = try await Self.signIn(app)
        let widget = Self.process(FileSessionStore(directory: folder), fake, clock)
        _ = try await widget.restore()
        let refreshed = try await app.refresh()
        let heard = await Self.state(of: widget, within: Self.loadedMachineBound) { $0.session?.refreshToken == refreshed.refreshToken }
        #expect(heard?.session?.refreshToken == refreshed.refreshToken)
        #expect(await fake.count(.refresh) == 1)
        await app.shutdown()
        await widget.shutdown()
    }

    @Test func aSignInInOneProcessIsPublishedByAnotherThatWasSignedOut() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock()
        let fake = await Self.fake(clock)
        let app = Self.process(FileSessionStore(directory: folder), fake, clock)
        let widget = Self.process(FileSessionStore(directory: folder), fake, clock)
        #expect(try await widget.restore() == .signedOut)
        let session = try await Self.signIn(app)
        let heard = await Self.state(of: widget, within: Self.loadedMachineBound) { $0.session != nil }
        #expect(heard?.session?.refreshToken == session.refreshToken)
        await app.shutdown()
        await widget.shutdown()
    }

    @Test func aFloodOfNotificationsCausesReReadsNeverRefreshes() async throws {
        let clock = ManualClock()
        let fake = await Self.fake(clock)
        let notifier = ScriptedStoreChangeNotifier()
        let store = CountingStore(base: InMemorySessionStore(), notifier: notifier)
        let app = Self.process(store, fake, clock)
        _ = try await Self.signIn(app)
        // The access token is due: still, a notification only re-reads.
        clock.set(to: clock.now.addingTimeInterval(SessionDefaults.accessTokenLifetime + 1))
        await notifier.waitForListener()
        let before = await store.loads.value
        for _ in 0..<500 { notifier.post() }
        // Another process's write, then one more notification: it is adopted.
        var next = try #require(try await store.load())
        next.refreshToken = "written-by-another-process"
        next.sequence += 1
        try await store.save(next)
        let heard = await Self.state(of: app, within: Self.loadedMachineBound) { $0.session?.refreshToken == "written-by-another-process" }
        #expect(heard != nil)
        let reads = await store.loads.value - before
        #expect(reads >= 1)
        #expect(reads < 500)
        #expect(await fake.count(.refresh) == 0)
        await app.shutdown()
    }

    @Test func theFolderWatchHearsASaveIntoAFolderNotYetMadeAndAClear() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileSessionStore(directory: folder)
        let changes = try #require(store.changeNotifier).changes()
        var heard = changes.makeAsyncIterator()
        // The folder does not exist yet: the watch finds it when the first save creates it.
        try await store.save(StoredSession(accessToken: "a", refreshToken: "r", expiresAt: nil, sequence: 1))
        #expect(await heard.next() != nil)
        let lock = try await store.lockForRefresh()
        await lock.unlock()
        try await store.clear()
        #expect(await heard.next() != nil)
    }
}

/// Notifications a test posts by hand, as another process's would arrive.
final class ScriptedStoreChangeNotifier: StoreChangeNotifier, @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [AsyncStream<Void>.Continuation] = []

    func post() {
        for continuation in lock.withLock({ continuations }) { continuation.yield() }
    }

    /// Waits until a client listens.
    func waitForListener() async {
        while lock.withLock({ continuations.isEmpty }) { await Task.yield() }
    }

    func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        lock.withLock { continuations.append(continuation) }
        return stream
    }
}

/// A store that counts its reads and posts on every write.
struct CountingStore: SessionStore {
    let base: InMemorySessionStore
    let notifier: ScriptedStoreChangeNotifier
    let loads = ReadCounter()

    var changeNotifier: (any StoreChangeNotifier)? { notifier }

    func load() async throws(SessionStoreError) -> StoredSession? {
        await loads.increment()
        return try await base.load()
    }

    func save(_ session: StoredSession) async throws(SessionStoreError) {
        try await base.save(session)
        notifier.post()
    }

    func clear() async throws(SessionStoreError) {
        try await base.clear()
        notifier.post()
    }

    func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        try await base.lockForRefresh()
    }
}

actor ReadCounter {
    private(set) var value = 0
    func increment() { value += 1 }
}
