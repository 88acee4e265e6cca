import Foundation
import SessionCore
import SessionKitTesting
import Testing

/// What an app developer writes with `SessionKitTesting` alone.
@Suite(.timeLimit(.minutes(1)))
struct TestEnvironmentTests {
    @Test func appCodeCanDriveOfflineAndRecovery() async throws {
        let env = await SessionTestEnvironment.make(automaticRefresh: false)
        let session = try await env.signIn()
        env.expireAccessToken()
        await env.backend.inject(.drop(.notConnectedToInternet), on: .refresh)
        await #expect(throws: SessionError.network) { try await env.client.accessToken() }
        #expect(env.client.currentState == .offline(session))
        // The backoff in force answers token calls; once it has passed, the next one refreshes.
        env.clock.set(to: env.clock.now.addingTimeInterval(1))
        #expect(try await env.client.accessToken() != session.accessToken)
        #expect(await env.backend.count(.refresh) == 2)
    }
}
