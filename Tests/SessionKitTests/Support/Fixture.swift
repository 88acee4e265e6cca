import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore
@testable import SessionKit
import SessionKitTesting

/// A client wired to a fake backend and a manual clock, signed up or not.
struct Fixture {
    static let email = "ada@example.com"
    static let password = "correct-horse"

    let clock: ManualClock
    let fake: FakeAuthBackend
    let store: any SessionStore
    let client: SessionClient
    let logs: LogCapture

    static func make(
        store: (any SessionStore)? = nil,
        clock: ManualClock = ManualClock(),
        fake: FakeAuthBackend? = nil,
        launchValidation: SessionClientConfiguration.LaunchValidation = .background,
        automaticRefresh: Bool = false,
        transport: (any HTTPTransport)? = nil,
        authorizedOrigins: [URL]? = nil
    ) async -> Fixture {
        let fake = fake ?? FakeAuthBackend(clock: clock)
        if await !fake.hasUser(email: email) {
            await fake.createUser(email: email, password: password)
        }
        let store = store ?? InMemorySessionStore()
        let logs = LogCapture()
        var configuration = fake.clientConfiguration(
            clock: clock, store: AnyStore(store), launchValidation: launchValidation,
            automaticRefresh: automaticRefresh, logger: logs.logger())
        if let transport { configuration.transport = transport }
        if let authorizedOrigins { configuration.authorizedOrigins = authorizedOrigins }
        return Fixture(
            clock: clock, fake: fake, store: store, client: SessionClient(configuration: configuration), logs: logs)
    }

    /// Signs in and returns the session.
    @discardableResult
    func signIn() async throws -> Session {
        try await client.signIn(email: Self.email, password: Self.password)
    }

    /// Jumps the clock past the access token's expiry without waking timers (an app suspended).
    func expireAccessToken() {
        clock.set(to: clock.now.addingTimeInterval(SessionDefaults.accessTokenLifetime + 1))
    }

    func storedRefreshToken() async throws -> String? {
        try await store.load()?.refreshToken
    }
}

/// Passes an existential store to the generic configuration init.
struct AnyStore: SessionStore {
    let base: any SessionStore
    init(_ base: any SessionStore) { self.base = base }
    func load() async throws(SessionStoreError) -> StoredSession? { try await base.load() }
    func save(_ session: StoredSession) async throws(SessionStoreError) { try await base.save(session) }
    func clear() async throws(SessionStoreError) { try await base.clear() }
    func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock { try await base.lockForRefresh() }
    func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
        try await base.lockForRefresh(waitingAtMost: seconds)
    }
}

/// Records every event of one subscription until the client shuts down.
final class EventLog: Sendable {
    private let task: Task<[SessionEvent], Never>

    init(_ client: SessionClient) {
        let stream = client.events
        task = Task {
            var all: [SessionEvent] = []
            for await event in stream { all.append(event) }
            return all
        }
    }

    /// Shuts the client down (finishing the stream) and returns what was seen.
    func finish(_ client: SessionClient) async -> [SessionEvent] {
        await client.shutdown()
        return await task.value
    }
}

extension [SessionEvent] {
    var expiredCount: Int {
        filter { if case .sessionExpired = $0 { true } else { false } }.count
    }
    var refreshedCount: Int {
        filter { if case .tokenRefreshed = $0 { true } else { false } }.count
    }
    var persistenceFailures: Int {
        filter { if case .persistenceFailed = $0 { true } else { false } }.count
    }
    func refreshFailures(willRetry: Bool) -> Int {
        filter { if case .refreshFailed(_, let retry) = $0 { retry == willRetry } else { false } }.count
    }
}

/// Yields (never sleeps) until `condition` holds; `false` if it never did.
func eventually(maxYields: Int = 20_000, _ condition: () async throws -> Bool) async rethrows -> Bool {
    for _ in 0..<maxYields {
        if try await condition() { return true }
        await Task.yield()
    }
    return try await condition()
}

/// Waits for the first state matching `predicate`.
func waitForState(_ client: SessionClient, _ predicate: @Sendable (SessionState) -> Bool) async -> SessionState? {
    for await state in client.states where predicate(state) { return state }
    return nil
}
