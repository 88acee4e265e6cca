import Foundation
import Logging
import SessionCore
import SessionKit

/// A ready test setup for app code: a manual clock, the fake backend with one
/// user, an in-memory store and a client wired to them. No server, no sleeping.
///
/// ```swift
/// let env = await SessionTestEnvironment.make()
/// try await env.signIn()
/// env.expireAccessToken()                       // the app was suspended for an hour
/// await env.backend.inject(.drop(.notConnectedToInternet), on: .refresh)
/// // … exercise your view model against env.client …
/// ```
public struct SessionTestEnvironment: Sendable {
    public static let defaultEmail = "test@example.com"
    public static let defaultPassword = "password-123"

    public let clock: ManualClock
    public let backend: FakeAuthBackend
    public let store: any SessionStore
    public let client: SessionClient
    /// Everything the client logged.
    public let logs: LogCapture

    /// Builds the setup; `configure` may adjust the client configuration first.
    public static func make(
        store: some SessionStore = InMemorySessionStore(),
        launchValidation: SessionClientConfiguration.LaunchValidation = .background,
        automaticRefresh: Bool = true,
        configure: (inout SessionClientConfiguration) -> Void = { _ in }
    ) async -> SessionTestEnvironment {
        let clock = ManualClock()
        let backend = FakeAuthBackend(clock: clock)
        await backend.createUser(email: defaultEmail, password: defaultPassword)
        let logs = LogCapture()
        var configuration = backend.clientConfiguration(
            clock: clock, store: store, launchValidation: launchValidation, automaticRefresh: automaticRefresh,
            logger: logs.logger())
        configure(&configuration)
        return SessionTestEnvironment(
            clock: clock, backend: backend, store: store, client: SessionClient(configuration: configuration), logs: logs)
    }

    /// Signs the default user in.
    @discardableResult
    public func signIn() async throws(SessionError) -> Session {
        try await client.signIn(email: Self.defaultEmail, password: Self.defaultPassword)
    }

    /// Jumps past the access token's lifetime without waking timers, as a suspended app would.
    public func expireAccessToken(lifetime: TimeInterval = SessionDefaults.accessTokenLifetime) {
        clock.set(to: clock.now.addingTimeInterval(lifetime + 1))
    }
}
