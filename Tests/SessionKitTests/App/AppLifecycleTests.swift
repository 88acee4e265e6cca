import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The client follows the app's lifecycle itself: `resume()` on becoming
/// active, a last save on going to the background; observation is started
/// once per client, can be turned off, and ends with `shutdown()`.
struct AppLifecycleTests {
    static func make(
        observing: Bool = true, store: some SessionStore = InMemorySessionStore()
    ) async -> (SessionTestEnvironment, ScriptedAppLifecycle) {
        let lifecycle = ScriptedAppLifecycle()
        let env = await SessionTestEnvironment.make(store: store) {
            $0.appLifecycle = lifecycle
            $0.observesAppLifecycle = observing
        }
        return (env, lifecycle)
    }

    /// Suspended past the token's expiry (timers did not run): becoming active refreshes without app code.
    @Test func becomingActiveRefreshesADueSession() async throws {
        let (env, lifecycle) = await Self.make()
        let session = try await env.signIn()
        env.client.startObservingLifecycle()
        #expect(await lifecycle.waitForSubscribers(count: 1))
        env.expireAccessToken()
        #expect(await env.backend.count(.refresh) == 0)

        lifecycle.send(.didBecomeActive)
        #expect(await eventually { await env.backend.count(.refresh) == 1 })
        #expect(await eventually { env.client.currentState.session.map { $0.refreshToken != session.refreshToken } == true })
        await env.client.shutdown()
    }

    @Test func optingOutObservesNothing() async throws {
        let (env, lifecycle) = await Self.make(observing: false)
        _ = try await env.signIn()
        env.client.startObservingLifecycle()
        for _ in 0..<1000 { await Task.yield() }
        #expect(lifecycle.subscriberCount == 0)
        #expect(!env.client.isObservingLifecycle)
        env.expireAccessToken()
        lifecycle.send(.didBecomeActive)
        for _ in 0..<1000 { await Task.yield() }
        #expect(await env.backend.count(.refresh) == 0)
        await env.client.shutdown()
    }

    /// Every `restore()` asks; one observer serves them all (one `resume()` per activation).
    @Test func observesOncePerClient() async throws {
        let (env, lifecycle) = await Self.make()
        for _ in 0..<3 { env.client.startObservingLifecycle() }
        #expect(await lifecycle.waitForSubscribers(count: 1))
        for _ in 0..<1000 { await Task.yield() }
        #expect(lifecycle.subscriberCount == 1)
        await env.client.shutdown()
    }

    /// `shutdown()` finishes the state stream the observer watches: the observation ends with it.
    @Test func shutdownEndsTheObservation() async throws {
        let (env, lifecycle) = await Self.make()
        _ = try await env.signIn()
        env.client.startObservingLifecycle()
        #expect(await lifecycle.waitForSubscribers(count: 1))
        await env.client.shutdown()
        #expect(await lifecycle.waitForSubscribers(count: 0))
        #expect(await eventually { !env.client.isObservingLifecycle })
        env.expireAccessToken()
        lifecycle.send(.didBecomeActive)
        for _ in 0..<1000 { await Task.yield() }
        #expect(await env.backend.count(.refresh) == 0)
    }

    /// The hook `shutdown()` calls: the observation ends at once, even with the client running.
    @Test func stoppingEndsTheObservation() async throws {
        let (env, lifecycle) = await Self.make()
        env.client.startObservingLifecycle()
        #expect(await lifecycle.waitForSubscribers(count: 1))
        env.client.stopObservingLifecycle()
        #expect(!env.client.isObservingLifecycle)
        #expect(await lifecycle.waitForSubscribers(count: 0))
        // Stopped is not "never again": the next restore may start it anew.
        env.client.startObservingLifecycle()
        #expect(await lifecycle.waitForSubscribers(count: 1))
        await env.client.shutdown()
    }

    /// A client dropped without `shutdown()` is not kept alive by its observer, which then ends.
    @Test func aDroppedClientIsReleased() async throws {
        let lifecycle = ScriptedAppLifecycle()
        let clock = ManualClock()
        let backend = FakeAuthBackend(clock: clock)
        var configuration = backend.clientConfiguration(clock: clock)
        configuration.appLifecycle = lifecycle
        var client: SessionClient? = SessionClient(configuration: configuration)
        weak let released = client
        client?.startObservingLifecycle()
        #expect(await lifecycle.waitForSubscribers(count: 1))
        client = nil
        #expect(released == nil)
        lifecycle.send(.didBecomeActive)
        #expect(await lifecycle.waitForSubscribers(count: 0))
    }

    /// The app may be killed in the background: an unsaved session gets one more save first.
    @Test func goingToTheBackgroundSavesAnUnsavedSession() async throws {
        let store = FlakySessionStore(wrapping: InMemorySessionStore())
        let (env, lifecycle) = await Self.make(store: store)
        _ = try await env.signIn()
        env.client.startObservingLifecycle()
        #expect(await lifecycle.waitForSubscribers(count: 1))
        await store.failNextSaves(1)
        let refreshed = try await env.client.refresh()
        #expect(try await store.load()?.refreshToken != refreshed.refreshToken)

        // No clock advance: the write retry's backoff has not elapsed; the background event saves it.
        lifecycle.send(.didEnterBackground)
        #expect(try await eventually { try await store.load()?.refreshToken == refreshed.refreshToken })
        await env.client.shutdown()
    }

    @Test func restoreStartsTheObservation() async throws {
        let (env, lifecycle) = await Self.make()
        _ = try await env.client.restore()
        #expect(await lifecycle.waitForSubscribers(count: 1))
        await env.client.shutdown()
    }
}

#if !canImport(UIKit) && !canImport(AppKit)
/// Where there is no app lifecycle (Linux, a CLI), observing it costs nothing.
struct SystemAppLifecycleTests {
    @Test func theStreamHasEndedAlready() async {
        var events = await SystemAppLifecycle().events().makeAsyncIterator()
        #expect(await events.next() == nil)
    }

    @Test func aClientStopsObservingAtOnce() async {
        let clock = ManualClock()
        let client = SessionClient(configuration: FakeAuthBackend(clock: clock).clientConfiguration(clock: clock))
        client.startObservingLifecycle()
        #expect(await eventually { !client.isObservingLifecycle })
        await client.shutdown()
    }
}
#endif
