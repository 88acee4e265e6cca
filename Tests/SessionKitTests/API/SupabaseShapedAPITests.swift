import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The calls a supabase-swift user reaches for first (issue 28 items 3, 5, 6, 9):
/// `session`, `initialSession`, importing tokens by `expiresIn`, `updateUser`,
/// and the errors a hosted project answers.
@Suite(.timeLimit(.minutes(1)))
struct SupabaseShapedAPITests {
    /// A store holding a session the fake issued, as a previous launch left it.
    func seededStore(_ fake: FakeAuthBackend) async throws -> (InMemorySessionStore, TokenResponse) {
        await fake.createUser(email: Fixture.email, password: Fixture.password)
        let response = try #require(await fake.issueSession(email: Fixture.email))
        return (InMemorySessionStore(StoredSession(Session(response: response, serverNow: await fake.serverNow))), response)
    }

    @Test func sessionWaitsForTheLaunchReadAndRefreshesAnExpiredToken() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (store, response) = try await seededStore(fake)
        clock.set(to: clock.now.addingTimeInterval(4000))
        let f = await Fixture.make(store: store, clock: clock, fake: fake)
        // No restore() first: the accessor starts the launch read itself, as `auth.session` does.
        let session = try await f.client.session
        #expect(session.refreshToken != response.refreshToken)
        #expect(await fake.count(.refresh) == 1)
        #expect(await f.client.currentSession?.accessToken == session.accessToken)
    }

    @Test func sessionWithoutOneIsNotSignedIn() async throws {
        let f = await Fixture.make()
        await #expect(throws: SessionError.notSignedIn) { try await f.client.session }
    }

    @Test func aSubscriberLearnsTheRestoredSessionFirst() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        let (store, response) = try await seededStore(fake)
        let f = await Fixture.make(store: store, clock: clock, fake: fake, launchValidation: .skip)
        let before = EventLog(f.client)  // subscribed while `restoring`
        _ = try await f.client.restore()
        let after = EventLog(f.client)  // subscribed once the read has ended
        _ = try await f.client.signIn(email: Fixture.email, password: Fixture.password)
        let early = await before.finish(f.client)
        let late = await after.finish(f.client)
        for seen in [early, late] {
            guard case .initialSession(let session?) = seen.first else {
                Issue.record("the first event is not initialSession with the session: \(seen)")
                continue
            }
            #expect(session.refreshToken == response.refreshToken)
            #expect(seen.filter { if case .initialSession = $0 { true } else { false } }.count == 1)
        }
    }

    @Test func aSubscriberWhileSignedOutLearnsThereIsNoSession() async throws {
        let f = await Fixture.make()
        _ = try await f.client.restore()
        let seen = await EventLog(f.client).finish(f.client)
        #expect(seen.first == .initialSession(nil))
    }

    @Test func importingByExpiresInReadsTheLifetimeFromNow() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        await fake.createUser(email: Fixture.email, password: Fixture.password)
        let response = try #require(await fake.issueSession(email: Fixture.email))
        let f = await Fixture.make(clock: clock, fake: fake)
        _ = try await f.client.restore()
        let session = try await f.client.importSession(
            accessToken: response.accessToken, refreshToken: response.refreshToken, expiresIn: 3600)
        #expect(session.refreshToken.isEmpty == false)
        #expect(f.client.currentState.isSignedIn)
    }

    @Test func updateUserSendsGoTruesPutAndKeepsTheNewUser() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        let user = try await f.client.updateUser(UserAttributes(data: ["nickname": .string("Ada")]))
        #expect(user.userMetadata["nickname"] == .string("Ada"))
        #expect(await f.fake.count(.updateUser) == 1)
        #expect(await f.client.currentSession?.user?.userMetadata["nickname"] == .string("Ada"))
    }

    @Test func deletingOnAServerWithoutTheGatewayIsUnsupportedAndNamesThePattern() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        // Hosted Supabase's gateway (Kong) answers an unknown route so.
        await f.fake.inject(.status(404, body: Data(#"{"message":"no Route matched with those values"}"#.utf8)), on: .deleteMe)
        do {
            try await f.client.deleteAccount()
            Issue.record("deleteAccount succeeded")
        } catch {
            #expect(error == .unsupported)
            #expect(error.message.contains("service-role"))
        }
        #expect(f.client.currentState.isSignedIn)
    }

    @Test(arguments: [
        FakeFault.gatewayError(status: 403, code: .reauthenticationRequired, message: "Confirm it is you"),
        FakeFault.goTrueError(status: 400, code: .reauthenticationNeeded),
    ])
    func freshProofWantedIsItsOwnKindAndKeepsTheSession(_ fault: FakeFault) async throws {
        let f = await Fixture.make()
        try await f.signIn()
        await f.fake.inject(fault, on: .deleteMe)
        await #expect(throws: SessionError.reauthenticationRequired) { try await f.client.deleteAccount() }
        #expect(f.client.currentState.isSignedIn)
        #expect(await f.fake.count(.refresh) == 0)
    }

    @Test func deletionSendsTheCurrentPasswordWhenGiven() throws {
        let backend = GoTrueBackend(url: URL(string: "https://auth.example.com")!)
        let request = try backend.request(for: .deleteAccount(AccountDeletion(currentPassword: "pw")))
        #expect(request.httpMethod == "DELETE")
        #expect(String(decoding: request.httpBody ?? Data(), as: UTF8.self) == #"{"current_password":"pw"}"#)
        let bare = try backend.request(for: .deleteAccount(AccountDeletion()))
        #expect(bare.httpBody == nil)
    }
}
