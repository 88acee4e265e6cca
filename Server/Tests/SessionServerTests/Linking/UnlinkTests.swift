import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// `DELETE /auth/v1/user/identities/{id}` as GoTrue's `DeleteIdentity` answers it
/// (`internal/api/identity.go`): never the last identity, another user's is not found.
struct UnlinkTests {
    /// A password user with Strava linked: the session after the link and the Strava identity's `identity_id`.
    static func linkedUser(
        _ client: any TestClientProtocol, email: String = "ada@example.com"
    ) async throws -> (TokenResponse, String) {
        let session = try await client.signUp(email)
        let code = try #require(OAuthFlowTests.query(try await Linking.link(client, bearer: session.accessToken), "code"))
        let linked = try await OAuthFlowTests.exchange(client, code: code).decode(TokenResponse.self)
        let strava = try #require(linked.user?.identities?.first { $0.provider == "strava" })
        return (linked, try #require(strava.identityId))
    }

    @Test(arguments: TestDatabase.all)
    func unlinksALinkedIdentity(database: TestDatabase) async throws {
        let test = try await Linking.server(database)
        try await test.run { client in
            let (session, identityID) = try await Self.linkedUser(client)
            let unlink = try await client.send(.delete, "/auth/v1/user/identities/\(identityID)", bearer: session.accessToken)
            #expect(unlink.status == .ok)
            #expect(try unlink.jsonObject().isEmpty)
            let me = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken).decode(SessionUser.self)
            #expect(me.identities?.map(\.provider) == ["email"])
            // The athlete is nobody's now: a Strava sign-in makes a new user.
            let signIn = try await OAuthFlowTests.exchange(
                client, code: try #require(OAuthFlowTests.query(try await OAuthFlowTests.runFlow(client), "code")))
            #expect(try signIn.decode(TokenResponse.self).user?.id != session.user?.id)
            // The session is untouched.
            #expect(try await client.refresh(session.refreshToken).status == .ok)
            // Both are in the audit log, by the user, without a token.
            let entries = try await test.server.store.auditLog(page: 1, perPage: 50).entries
            let linking = entries.filter { ["identity_linked", "identity_unlinked"].contains($0.action) }
            #expect(Set(linking.map(\.action)) == ["identity_linked", "identity_unlinked"])
            #expect(linking.allSatisfy { $0.actor == session.user?.id })
            #expect(!"\(linking)".contains(session.refreshToken))
        }
    }

    @Test func theLastIdentityIsNeverUnlinked() async throws {
        let test = try await Linking.server()
        try await test.run { client in
            // A Strava-only user: one identity.
            let session = try await OAuthFlowTests.exchange(
                client, code: try #require(OAuthFlowTests.query(try await OAuthFlowTests.runFlow(client), "code"))
            ).decode(TokenResponse.self)
            let only = try #require(session.user?.identities?.first?.identityId)
            let unlink = try await client.send(.delete, "/auth/v1/user/identities/\(only)", bearer: session.accessToken)
            #expect(unlink.status == .unprocessableContent)
            #expect(unlink.goTrueErrorCode == "single_identity_not_deletable")
            let me = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken).decode(SessionUser.self)
            #expect(me.identities?.count == 1)
        }
    }

    @Test func anotherUsersIdentityIsNotFoundAndStaysLinked() async throws {
        let provider = StubProvider(athleteID: 601)
        let test = try await Linking.server(provider: provider)
        try await test.run { client in
            let (ada, adaStrava) = try await Self.linkedUser(client)
            provider.answer(with: StubProvider.strava(athleteID: 602, email: nil))
            let (eve, _) = try await Self.linkedUser(client, email: "eve@example.com")
            let steal = try await client.send(.delete, "/auth/v1/user/identities/\(adaStrava)", bearer: eve.accessToken)
            #expect(steal.status == .unprocessableContent)
            #expect(steal.goTrueErrorCode == "identity_not_found")
            let me = try await client.send(.get, "/auth/v1/user", bearer: ada.accessToken).decode(SessionUser.self)
            #expect(me.identities?.map(\.provider) == ["email", "strava"])

            let unknown = try await client.send(
                .delete, "/auth/v1/user/identities/\(UUID().uuidString)", bearer: eve.accessToken)
            #expect(unknown.goTrueErrorCode == "identity_not_found")
            let notUUID = try await client.send(.delete, "/auth/v1/user/identities/not-a-uuid", bearer: eve.accessToken)
            #expect(notUUID.status == .notFound)
            #expect(notUUID.goTrueErrorCode == "validation_failed")
            // The email identity stands for the address and password, which stay.
            let email = try await client.send(
                .delete, "/auth/v1/user/identities/\(try #require(eve.user?.id))", bearer: eve.accessToken)
            #expect(email.status == .unprocessableContent)
            #expect(email.goTrueErrorCode == "validation_failed")
        }
    }
}
