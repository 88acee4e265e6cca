import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting

/// A backend dialect the client must keep sessions with: GoTrue (the fake
/// Supabase server) or the minimal custom dialect, bare and wrapped.
enum World: String, CaseIterable, Sendable, CustomStringConvertible {
    case goTrue, minimalBare, minimalWrapped
    var description: String { rawValue }
}

/// A client signed in against one ``World``, with the controls a test needs.
struct WorldFixture: Sendable {
    static let email = "ada@example.com"
    static let password = "correct-horse"

    let world: World
    let clock: ManualClock
    let store: any SessionStore
    let client: SessionClient
    let goTrue: FakeAuthBackend?
    let minimal: MinimalBackend?

    static func make(_ world: World, automaticRefresh: Bool = false, configure: (inout SessionClientConfiguration) -> Void = { _ in }) async -> WorldFixture {
        let clock = ManualClock()
        let store = InMemorySessionStore()
        var configuration: SessionClientConfiguration
        var goTrue: FakeAuthBackend?
        var minimal: MinimalBackend?
        switch world {
        case .goTrue:
            let fake = FakeAuthBackend(clock: clock)
            await fake.createUser(email: email, password: password)
            configuration = fake.clientConfiguration(clock: clock, store: store, launchValidation: .skip, automaticRefresh: automaticRefresh)
            goTrue = fake
        case .minimalBare, .minimalWrapped:
            let fake = MinimalBackend(clock: clock, shape: world == .minimalBare ? .bare : .wrapped)
            await fake.createUser(email: email, password: password)
            configuration = fake.clientConfiguration(clock: clock, store: store, automaticRefresh: automaticRefresh)
            minimal = fake
        }
        configure(&configuration)
        return WorldFixture(
            world: world, clock: clock, store: store, client: SessionClient(configuration: configuration), goTrue: goTrue,
            minimal: minimal)
    }

    /// The same server and clock, a new client on `store` (another launch, another process).
    func sibling(store: any SessionStore, configure: (inout SessionClientConfiguration) -> Void = { _ in }) -> WorldFixture {
        var configuration = client.configuration
        configuration.store = store
        configure(&configuration)
        return WorldFixture(
            world: world, clock: clock, store: store, client: SessionClient(configuration: configuration), goTrue: goTrue,
            minimal: minimal)
    }

    @discardableResult
    func signIn() async throws -> Session {
        try await client.signIn(email: Self.email, password: Self.password)
    }

    func expireAccessToken() {
        clock.set(to: clock.now.addingTimeInterval(SessionDefaults.accessTokenLifetime + 1))
    }

    func injectOnRefresh(_ fault: FakeFault, times: Int = 1) async {
        if let goTrue { await goTrue.inject(fault, on: .refresh, times: times) }
        if let minimal { await minimal.inject(fault, on: .refresh, times: times) }
    }

    /// Faults the endpoint ``SessionClient/me()`` calls.
    func injectOnMe(_ fault: FakeFault, times: Int = 1) async {
        if let goTrue { await goTrue.inject(fault, on: .user, times: times) }
        if let minimal { await minimal.inject(fault, on: .me, times: times) }
    }

    func refreshCount() async -> Int {
        if let goTrue { return await goTrue.count(.refresh) }
        return await minimal?.count(.refresh) ?? 0
    }

    /// The server ends every session of the user (a genuine end).
    func endSessionsOnServer() async {
        if let goTrue { await goTrue.revokeAllSessions(email: Self.email) }
        if let minimal { await minimal.endSessions(email: Self.email) }
    }

    /// True while the server still honours `refreshToken`.
    func serverHonours(_ refreshToken: String) async -> Bool {
        if let goTrue { return await goTrue.isFamilyActive(refreshToken: refreshToken) }
        return await minimal?.isLive(refreshToken) ?? false
    }

    func storedRefreshToken() async throws -> String? {
        try await store.load()?.refreshToken
    }
}
