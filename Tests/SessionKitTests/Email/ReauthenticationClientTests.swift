import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// `reauthenticate()` and the `nonce` of a password change or a deletion,
/// against the fake speaking GoTrue's re-authentication (its
/// `requireReauthentication` is GoTrue's "secure password change" with an
/// old session): a refused proof keeps the session, a mailed code works once.
struct ReauthenticationClientTests {
    /// A person signed in by an emailed code: no password to give as proof.
    static func codeOnly() async throws -> Fixture {
        let f = await Fixture.make()
        try await f.client.sendEmailCode(to: "bea@example.com")
        let code = try #require(await f.fake.emailCode(sentTo: "bea@example.com"))
        try await f.client.verifyEmailCode(email: "bea@example.com", code: code)
        await f.fake.requireReauthentication(true)
        return f
    }

    @Test func aMailedNonceChangesThePasswordOnce() async throws {
        let f = try await Self.codeOnly()
        let session = try #require(f.client.currentState.session)
        await #expect(throws: SessionError.reauthenticationRequired) { try await f.client.updatePassword("first-password") }
        #expect(f.client.currentState == .signedIn(session), "a refused proof keeps the session")

        try await f.client.reauthenticate()
        #expect(await f.fake.count(.reauthenticate) == 1)
        let nonce = try #require(await f.fake.reauthenticationNonce(sentTo: "bea@example.com"))
        // Typed with a space, as codes are copied from an email.
        try await f.client.updatePassword("first-password", nonce: nonce.prefix(3) + " " + nonce.dropFirst(3))
        // Spent: the same nonce is refused the second time, still without losing the session.
        let again = await #expect(throws: SessionError.self) { try await f.client.updatePassword("second-password", nonce: nonce) }
        #expect(again == .reauthenticationRequired)
        #expect(again?.status == 400)
        #expect(f.client.currentState == .signedIn(session))
    }

    @Test func updateUserCarriesTheNonceAsSupabaseSwiftDoes() async throws {
        let f = try await Self.codeOnly()
        try await f.client.reauthenticate()
        let nonce = try #require(await f.fake.reauthenticationNonce(sentTo: "bea@example.com"))
        let user = try await f.client.updateUser(UserAttributes(password: "first-password", nonce: nonce))
        #expect(user.email == "bea@example.com")
    }

    @Test func aDeletionWithTheMailedNonceSignsOut() async throws {
        let f = try await Self.codeOnly()
        await #expect(throws: SessionError.reauthenticationRequired) { try await f.client.deleteAccount() }
        #expect(f.client.currentState.session != nil)
        let wrong = "12345"
        await #expect(throws: SessionError.reauthenticationRequired) { try await f.client.deleteAccount(nonce: wrong) }
        try await f.client.reauthenticate()
        let nonce = try #require(await f.fake.reauthenticationNonce(sentTo: "bea@example.com"))
        try await f.client.deleteAccount(nonce: nonce)
        #expect(f.client.currentState == .signedOut)
        #expect(await f.fake.hasUser(email: "bea@example.com") == false)
    }

    @Test func theRequestIsGoTruesGetAndACustomBackendSaysUnsupported() throws {
        let goTrue = GoTrueBackend(url: URL(string: "https://auth.example.com")!, apiKey: "anon")
        let request = try goTrue.request(for: .reauthenticate)
        #expect(request.httpMethod ?? "GET" == "GET")
        #expect(request.url?.path == "/auth/v1/reauthenticate")
        #expect(BackendOperation.reauthenticate.requiresAuthorization)
        let custom = CustomBackend(
            refreshURL: URL(string: "https://api.example.com/refresh")!, meURL: URL(string: "https://api.example.com/me")!)
        #expect(throws: SessionError.unsupported) { try custom.request(for: .reauthenticate) }
        let body = try JSONEncoder().encode(AccountDeletion(nonce: "123456"))
        #expect(String(decoding: body, as: UTF8.self) == #"{"nonce":"123456"}"#)
    }
}
