import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// `signInWithApple(idToken:nonce:)` against the fake: a stored session, or
/// a typed error with nothing stored.
struct AppleSignInTests {
    @Test func signsInAndStoresTheSession() async throws {
        let f = await Fixture.make()
        let nonce = AppleSignInNonce()
        let token = await f.fake.appleIDToken(sub: "001234.abcd", email: "ada@privaterelay.appleid.com", nonce: nonce.raw)
        let session = try await f.client.signInWithApple(idToken: token, nonce: nonce.raw)
        #expect(session.user?.email == "ada@privaterelay.appleid.com")
        #expect(f.client.currentState == .signedIn(session))
        #expect(try await f.store.load()?.refreshToken == session.refreshToken)
        #expect(await f.fake.count(.idTokenGrant) == 1)
    }

    @Test func aRefusedTokenIsInvalidCredentialsWithTheServersReasonAndStoresNothing() async throws {
        let f = await Fixture.make()
        let nonce = AppleSignInNonce()
        let token = await f.fake.appleIDToken(sub: "001234.abcd", email: nil, nonce: nonce.raw)
        let error = await #expect(throws: SessionError.self) {
            try await f.client.signInWithApple(idToken: token, nonce: AppleSignInNonce().raw)
        }
        #expect(error == .invalidCredentials)
        #expect(error?.message.contains("nonce") == true)
        #expect(try await f.store.load()?.holdsSession != true)
        if case .signedIn = f.client.currentState { Issue.record("signed in with a refused token") }
    }

    @Test func aServerWithoutAppleSaysUnsupported() async throws {
        let f = await Fixture.make()
        await f.fake.inject(
            .goTrueError(status: 400, code: .providerDisabled, message: "Unsupported provider: apple"), on: .idTokenGrant)
        let error = await #expect(throws: SessionError.self) {
            try await f.client.signInWithApple(idToken: "x.y.z", nonce: "n")
        }
        #expect(error == .unsupported)
    }

    @Test func aCustomBackendSaysUnsupportedWithoutARequest() async throws {
        let backend = CustomBackend(
            refreshURL: URL(string: "https://api.example.com/refresh")!, meURL: URL(string: "https://api.example.com/me")!)
        #expect(throws: SessionError.unsupported) {
            try backend.request(for: .signInWithIDToken(IDTokenRequest(provider: "apple", idToken: "t", nonce: nil)))
        }
    }

    @Test func theNonceIsRandomAndItsHashIsWhatAppleGets() {
        let nonce = AppleSignInNonce(raw: "abc")
        // SHA-256("abc"), FIPS 180-2's test vector.
        #expect(nonce.hashed == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(AppleSignInNonce().raw != AppleSignInNonce().raw)
        #expect(AppleSignInNonce().raw.count == 43)
    }
}

/// Apple sends the name once, not in the ID token: it is returned, and written to the metadata when asked.
struct AppleNameTests {
    static let name = AppleFullName(
        PersonNameComponents(givenName: "Ada", middleName: "King", familyName: "Lovelace"))

    @Test func theNameIsReturnedAndSavedToTheUsersMetadata() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        let nonce = AppleSignInNonce()
        let token = await f.fake.appleIDToken(sub: "001234.abcd", email: "ada@privaterelay.appleid.com", nonce: nonce.raw)
        let result = try await f.client.signInWithApple(idToken: token, nonce: nonce.raw, fullName: Self.name, savingName: true)

        #expect(result.fullName?.fullName == "Ada King Lovelace")
        #expect(result.nameNotSaved == nil)
        #expect(result.session.user?.userMetadata["full_name"] == "Ada King Lovelace")
        #expect(result.session.user?.userMetadata["family_name"] == "Lovelace")
        #expect(try await f.store.load()?.user?.userMetadata["given_name"] == "Ada")
        #expect(await f.fake.count(.updateUser) == 1)
        let seen = await events.finish(f.client)
        #expect(seen.contains { if case .userUpdated(let user) = $0 { user.userMetadata["full_name"] == "Ada King Lovelace" } else { false } })
    }

    /// Not asked, or every sign-in after the first (no name): nothing is written.
    @Test(arguments: [(true, false), (false, true)])
    func nothingIsWrittenWithoutANameOrWhenNotAsked(hasName: Bool, saving: Bool) async throws {
        let f = await Fixture.make()
        let nonce = AppleSignInNonce()
        let token = await f.fake.appleIDToken(sub: "001234.abcd", email: nil, nonce: nonce.raw)
        let result = try await f.client.signInWithApple(
            idToken: token, nonce: nonce.raw, fullName: hasName ? Self.name : AppleFullName(nil), savingName: saving)
        #expect(result.fullName == (hasName ? Self.name : nil))
        #expect(await f.fake.count(.updateUser) == 0)
    }

    /// A server that cannot store it keeps the sign-in; the app is told, and has the name.
    @Test func aFailedWriteKeepsTheSignIn() async throws {
        let f = await Fixture.make()
        let nonce = AppleSignInNonce()
        let token = await f.fake.appleIDToken(sub: "001234.abcd", email: nil, nonce: nonce.raw)
        await f.fake.inject(.goTrueError(status: 500, code: GoTrueErrorCode("unexpected_failure")), on: .updateUser)
        let result = try await f.client.signInWithApple(idToken: token, nonce: nonce.raw, fullName: Self.name, savingName: true)
        #expect(result.nameNotSaved == .server)
        #expect(result.fullName == Self.name)
        #expect(f.client.currentState.isSignedIn)
    }

    @Test func anEmptyNameIsNone() {
        #expect(AppleFullName(PersonNameComponents()) == nil)
        #expect(AppleFullName(PersonNameComponents(givenName: "  ")) == nil)
        #expect(AppleFullName(givenName: "Ada").metadata == ["full_name": "Ada", "given_name": "Ada"])
    }
}
