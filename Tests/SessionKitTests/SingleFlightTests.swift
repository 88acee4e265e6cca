import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

@Suite(.timeLimit(.minutes(2)))
struct SingleFlightTests {
    @Test func tenThousandConcurrentCallersCauseOneRefresh() async throws {
        let f = await Fixture.make()
        let old = try await f.signIn()
        f.expireAccessToken()
        let gate = FakeGate()
        await f.fake.inject(.hold(gate), on: .refresh)
        let client = f.client
        let tokens = await withTaskGroup(of: String?.self, returning: Set<String?>.self) { group in
            for index in 0..<10_000 {
                group.addTask {
                    do {
                        return try await client.accessToken()
                    } catch {
                        return nil
                    }
                }
                if index == 0 { await gate.waitForArrivals(1) }
            }
            await gate.open()
            var all = Set<String?>()
            for await token in group { all.insert(token) }
            return all
        }
        #expect(await f.fake.count(.refresh) == 1)
        #expect(tokens.count == 1)
        let token = try #require(tokens.first ?? nil)
        #expect(token != old.accessToken)
    }

    @Test func aRejectedTokenIsNotAnsweredByTheRefreshThatIssuedIt() async throws {
        let f = await Fixture.make()
        let first = try await f.signIn()
        let refreshed = try await f.client.refresh()
        #expect(refreshed.accessToken != first.accessToken)
        // The server rejects the new token: a second, new refresh, not the old result.
        let again = try await f.client.refreshSession(reason: .rejected(accessToken: refreshed.accessToken))
        #expect(again.accessToken != refreshed.accessToken)
        #expect(await f.fake.count(.refresh) == 2)
        // Rejecting an already replaced token refreshes nothing.
        let same = try await f.client.refreshSession(reason: .rejected(accessToken: first.accessToken))
        #expect(same == again)
        #expect(await f.fake.count(.refresh) == 2)
    }

    @Test func twoProcessesSharingAFileStoreRefreshOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sessionkit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        // Two store instances: separate open file descriptions contend for the flock as two processes do.
        let a = await Fixture.make(store: FileSessionStore(directory: directory), clock: clock, fake: fake)
        let b = await Fixture.make(
            store: FileSessionStore(directory: directory), clock: clock, fake: fake, launchValidation: .skip)
        let old = try await a.signIn()
        #expect(try await b.client.restore().session?.refreshToken == old.refreshToken)
        a.expireAccessToken()

        let gate = FakeGate()
        await fake.inject(.hold(gate), on: .refresh)
        let first = Task { try await a.client.accessToken() }
        await gate.waitForArrivals(1)
        let second = Task { try await b.client.accessToken() }
        await gate.open()
        let tokenA = try await first.value
        let tokenB = try await second.value
        #expect(tokenA == tokenB)
        #expect(await fake.count(.refresh) == 1)
        #expect(await b.client.currentSession?.refreshToken == a.client.currentSession?.refreshToken)
    }

    @Test func anotherProcessSigningOutSignsThisOneOut() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sessionkit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let a = await Fixture.make(store: FileSessionStore(directory: directory), clock: clock, fake: fake)
        let b = await Fixture.make(
            store: FileSessionStore(directory: directory), clock: clock, fake: fake, launchValidation: .skip)
        try await a.signIn()
        _ = try await b.client.restore()
        try await a.client.signOut()
        a.expireAccessToken()
        await #expect(throws: SessionError.notSignedIn) { try await b.client.accessToken() }
        #expect(b.client.currentState == .signedOut)
        #expect(await fake.count(.refresh) == 0)
    }
}
