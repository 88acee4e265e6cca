import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// Passkey sign-in and registration through the engine, against GoTrue's
/// passkey API (``FakePasskeyServer``) with a software authenticator that
/// makes real ES256 credentials: a session from a passkey is kept like any
/// other, and a cancelled sheet or a refused answer changes nothing.
struct PasskeyFlowTests {
    struct Rig {
        let f: Fixture
        let server: FakePasskeyServer
        let authenticator = SoftwareAuthenticator()

        static func make() async -> Rig {
            let clock = ManualClock()
            let fake = FakeAuthBackend(clock: clock)
            let server = FakePasskeyServer(fake: fake)
            return Rig(f: await Fixture.make(clock: clock, fake: fake, transport: server), server: server)
        }

        /// Signed in by password, with one passkey registered.
        func registered() async throws -> Session {
            try await f.signIn()
            try await f.client.registerPasskey(using: authenticator)
            return try #require(f.client.currentState.session)
        }
    }

    @Test func registersThenSignsInWithThePasskeyAndStoresTheSession() async throws {
        let rig = await Rig.make()
        try await rig.f.signIn()
        let passkey = try await rig.f.client.registerPasskey(friendlyName: "Laptop", using: rig.authenticator)
        #expect(passkey.friendlyName == "Laptop")
        try await rig.f.client.signOut()

        let session = try await rig.f.client.signInWithPasskey(using: rig.authenticator)
        #expect(session.user?.email == Fixture.email)
        #expect(rig.f.client.currentState == .signedIn(session))
        #expect(try await rig.f.storedRefreshToken() == session.refreshToken)
        // GoTrue takes no name at registration: it was set by a rename.
        #expect(await rig.server.requests.contains("PATCH /\(passkey.id)"))
    }

    @Test func theVerifyBodiesCarryTheCredentialJSONUnderGoTruesKeys() async throws {
        let rig = await Rig.make()
        _ = try await rig.registered()
        try await rig.f.client.signOut()
        try await rig.f.client.signInWithPasskey(using: rig.authenticator)

        let bodies = try await rig.server.verifyBodies.map { try #require(JSONSerialization.jsonObject(with: $0) as? [String: Any]) }
        try #require(bodies.count == 2)
        // Registration: GoTrue's `credential_response`, and `credential` for auth-server and supabase-swift.
        let registration = try #require(bodies[0]["credential_response"] as? [String: Any])
        #expect(bodies[0]["credential"] != nil)
        #expect(registration["type"] as? String == "public-key")
        #expect(registration["id"] as? String == registration["rawId"] as? String)
        let attestation = try #require(registration["response"] as? [String: Any])
        #expect(Set(attestation.keys) == ["clientDataJSON", "attestationObject", "transports"])
        // Sign-in: `credential` only, an AuthenticationResponseJSON.
        #expect(bodies[1]["credential_response"] == nil)
        let assertion = try #require((bodies[1]["credential"] as? [String: Any])?["response"] as? [String: Any])
        #expect(Set(assertion.keys) == ["clientDataJSON", "authenticatorData", "signature", "userHandle"])
    }

    @Test func aCancelledRegistrationKeepsTheSession() async throws {
        let rig = await Rig.make()
        let session = try await rig.f.signIn()
        await rig.authenticator.set(cancels: true)

        let error = await #expect(throws: SessionError.self) {
            try await rig.f.client.registerPasskey(friendlyName: "Phone", using: rig.authenticator)
        }
        #expect(error == .cancelled)
        #expect(rig.f.client.currentState == .signedIn(session))
        #expect(try await rig.f.storedRefreshToken() == session.refreshToken)
        #expect(await rig.server.requests == ["POST /registration/options"])
        #expect(await rig.f.fake.count(.logout) == 0)
    }

    @Test func aCancelledSignInLeavesASignedInPersonSignedIn() async throws {
        let rig = await Rig.make()
        let session = try await rig.registered()
        await rig.authenticator.set(cancels: true)

        let error = await #expect(throws: SessionError.self) { try await rig.f.client.signInWithPasskey(using: rig.authenticator) }
        #expect(error == .cancelled)
        #expect(rig.f.client.currentState == .signedIn(session))
        #expect(try await rig.f.storedRefreshToken() == session.refreshToken)
        let events = await EventLog(rig.f.client).finish(rig.f.client)
        #expect(!events.contains { if case .signedOut = $0 { true } else { false } })
    }

    @Test func aCancelledSignInLeavesASignedOutPersonSignedOutWithNothingStored() async throws {
        let rig = await Rig.make()
        _ = try await rig.registered()
        try await rig.f.client.signOut()
        await rig.authenticator.set(cancels: true)

        let error = await #expect(throws: SessionError.self) { try await rig.f.client.signInWithPasskey(using: rig.authenticator) }
        #expect(error == .cancelled)
        #expect(rig.f.client.currentState == .signedOut)
        #expect(try await rig.f.store.load()?.holdsSession != true)
        #expect(await !rig.server.requests.contains("POST /authentication/verify"))
    }

    @Test func anAnswerForAnotherOriginIsRefusedAndNothingIsStored() async throws {
        let rig = await Rig.make()
        _ = try await rig.registered()
        try await rig.f.client.signOut()
        await rig.authenticator.set(origin: "https://examp1e.com")

        let error = await #expect(throws: SessionError.self) { try await rig.f.client.signInWithPasskey(using: rig.authenticator) }
        #expect(error == .invalidCredentials)
        #expect(error?.goTrueErrorCode == .webauthnVerificationFailed)
        #expect(error?.underlying == "origin not allowed")
        #expect(rig.f.client.currentState == .signedOut)
        #expect(try await rig.f.store.load()?.holdsSession != true)
    }

    @Test func anAnswerToAnotherChallengeIsRefused() async throws {
        let rig = await Rig.make()
        _ = try await rig.registered()
        try await rig.f.client.signOut()
        await rig.authenticator.set(challengeOverride: Data(repeating: 7, count: 32))

        let error = await #expect(throws: SessionError.self) { try await rig.f.client.signInWithPasskey(using: rig.authenticator) }
        #expect(error == .invalidCredentials)
        #expect(error?.underlying == "wrong challenge")
        #expect(rig.f.client.currentState == .signedOut)
    }

    @Test func aRegistrationForAnotherRPIsRefusedAndTheSessionKept() async throws {
        let rig = await Rig.make()
        let session = try await rig.f.signIn()
        await rig.authenticator.set(rpIDOverride: "evil.example")

        let error = await #expect(throws: SessionError.self) { try await rig.f.client.registerPasskey(using: rig.authenticator) }
        #expect(error == .invalidCredentials)
        #expect(error?.underlying == "wrong RP ID hash")
        #expect(rig.f.client.currentState == .signedIn(session))
        #expect(await rig.server.passkeyCount == 0)
    }

    @Test func readsCreationOptionsSentBareAsAuthServerDoes() async throws {
        let rig = await Rig.make()
        await rig.server.setBareCreationOptions(true)
        _ = try await rig.registered()
        #expect(await rig.server.passkeyCount == 1)
    }

    @Test func listsRenamesAndRemovesPasskeys() async throws {
        let rig = await Rig.make()
        let session = try await rig.registered()
        let listed = try await rig.f.client.passkeys()
        try #require(listed.count == 1)
        // Go writes nanoseconds: the date is read.
        #expect(listed[0].createdAt.timeIntervalSince1970.rounded() == 1_795_024_000)

        let renamed = try await rig.f.client.renamePasskey(id: listed[0].id, friendlyName: "Work laptop")
        #expect(renamed.friendlyName == "Work laptop")
        try await rig.f.client.deletePasskey(id: listed[0].id)
        #expect(try await rig.f.client.passkeys().isEmpty)
        let error = await #expect(throws: SessionError.self) { try await rig.f.client.deletePasskey(id: listed[0].id) }
        // GoTrue's 404 `validation_failed` for a passkey the account does not have.
        #expect(error == .notFound)
        // Removing the passkey a session began with, or any other, keeps the session.
        #expect(rig.f.client.currentState == .signedIn(session))
    }

    @Test func aPasskeyIDThatWouldLeaveItsPathSegmentIsRefusedWithoutARequest() async throws {
        let rig = await Rig.make()
        try await rig.f.signIn()
        for id in ["../user", "a/b", "", "x?y"] {
            let error = await #expect(throws: SessionError.self) { try await rig.f.client.deletePasskey(id: id) }
            #expect(error == .invalidRequest)
        }
        #expect(await rig.server.requests.isEmpty)
    }

    @Test func aBackendThatIsNotGoTrueSaysUnsupported() async throws {
        let backend = CustomBackend(
            refreshURL: URL(string: "https://api.example.com/refresh")!, meURL: URL(string: "https://api.example.com/me")!)
        #expect(throws: SessionError.unsupported) { try PasskeyEndpoints(backend) }
    }

    @Test func passkeysTurnedOffOnTheServerIsUnsupported() {
        let refusal = SessionError.notFound.with(status: 404, goTrueErrorCode: .passkeyDisabled)
        #expect(PasskeyErrors.explained(refusal) == .unsupported)
        #expect(PasskeyErrors.explained(refusal).status == 404)
        #expect(PasskeyErrors.explained(SessionError.network) == .network)
    }
}
