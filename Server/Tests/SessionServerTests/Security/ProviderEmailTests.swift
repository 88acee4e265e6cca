import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import Testing
@testable import SessionServer

/// Issue 15 §10: a provider's email is the account's address only when the
/// provider says it verified it; an address claimed but unverified neither
/// squats the address nor reaches another account.
struct ProviderEmailTests {
    /// Signs in through the stub provider and exchanges the code.
    static func signInWithProvider(_ client: any TestClientProtocol) async throws -> TokenResponse {
        let code = try #require(OAuthFlowTests.query(try await OAuthFlowTests.runFlow(client), "code"))
        return try await OAuthFlowTests.exchange(client, code: code).decode(TokenResponse.self)
    }

    @Test(arguments: TestDatabase.all, [nil, false] as [Bool?])
    func anUnverifiedProviderEmailIsNotTheAccountsAddress(database: TestDatabase, verified: Bool?) async throws {
        let provider = StubProvider(athleteID: 7, email: "ada@example.com", emailVerified: verified)
        let test = try await TestServer.make(database, configure: provider.configure)
        try await test.run { client in
            let viaProvider = try await Self.signInWithProvider(client)
            let user = try #require(viaProvider.user)
            #expect(user.email == nil)
            // What the provider said stays visible, marked as unverified.
            #expect(user.userMetadata["email"] == .string("ada@example.com"))
            #expect(user.userMetadata["email_verified"] == .bool(false))
            #expect(user.identities?.first?.identityData?["email"] == .string("ada@example.com"))

            // The address's owner can still sign up with it, and gets an account of their own.
            let owner = try await client.signUp("ada@example.com")
            #expect(owner.user?.id != user.id)
            #expect(owner.user?.identities?.contains { $0.provider == "strava" } != true)

            // The provider account signs in to its own user, still without the address.
            let again = try await Self.signInWithProvider(client)
            #expect(again.user?.id == user.id)
            #expect(again.user?.email == nil)
        }
    }

    @Test(arguments: TestDatabase.all)
    func aVerifiedProviderEmailIsTheAccountsAddressAndIsNotHandedOn(database: TestDatabase) async throws {
        let provider = StubProvider(athleteID: 8, email: "grace@example.com", emailVerified: true)
        let test = try await TestServer.make(database, configure: provider.configure)
        try await test.run { client in
            let viaProvider = try await Self.signInWithProvider(client)
            #expect(viaProvider.user?.email == "grace@example.com")
            #expect(viaProvider.user?.userMetadata["email_verified"] == .bool(true))

            // A sign-up over the address is refused; it neither takes the address nor links to the account.
            let signUp = try await client.send(
                .post, "/auth/v1/signup", json: #"{"email":"grace@example.com","password":"correct-horse"}"#)
            #expect(signUp.status.code == 422)
            #expect(signUp.goTrueErrorCode == "user_already_exists")
            let again = try await Self.signInWithProvider(client)
            #expect(again.user?.id == viaProvider.user?.id)
            #expect(again.user?.email == "grace@example.com")
        }
    }

    @Test func onlyAYesFromTheProviderCountsAsVerified() {
        let yes: [[String: JSONValue]] = [
            ["email_verified": .bool(true)], ["email_verified": .string("true")], ["verified_email": .bool(true)],
        ]
        let no: [[String: JSONValue]] = [
            [:], ["email_verified": .bool(false)], ["email_verified": .string("false")],
            ["email_verified": .number(1)], ["email_verified": .string("yes")], ["email_verified": .null],
        ]
        for source in yes { #expect(ProviderAccount.emailVerified(in: source, profile: [:]), "\(source)") }
        for source in no { #expect(!ProviderAccount.emailVerified(in: source, profile: [:]), "\(source)") }
    }
}
