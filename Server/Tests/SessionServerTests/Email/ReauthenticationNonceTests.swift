import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer
import Testing

/// `GET`/`POST /auth/v1/reauthenticate` and the `nonce` of `PUT /auth/v1/user`
/// and `DELETE /v1/auth/me` (docs/EMAIL.md, "Re-authentication"): the proof a
/// person without a password gives for a sensitive change, once the session
/// signed in too long ago to count.
struct ReauthenticationNonceTests {
    /// A person created by a sign-in code (no password), whose session is past the window.
    static func codeOnlyPerson(
        _ test: TestServer, _ client: any TestClientProtocol, _ mail: RecordingMailTransport
    ) async throws -> TokenResponse {
        _ = try await client.requestCode("ada@example.com")
        let code = try #require(try await mail.next().code)
        let session = try await client.verify(type: "email", email: "ada@example.com", code: code).decode(TokenResponse.self)
        await test.clock.advance(by: 601)
        return try await client.refresh(session.refreshToken).decode(TokenResponse.self)
    }

    @Test(arguments: TestDatabase.all)
    func aMailedNonceProvesPresenceForAPasswordOnce(database: TestDatabase) async throws {
        try await EmailTestServer.run(database, configure: { $0.emailsPerMinutePerAddress = 5 }) { test, client, mail in
            let stale = try await Self.codeOnlyPerson(test, client, mail)
            let bare = try await client.send(.put, "/auth/v1/user", json: #"{"password":"first-password"}"#, bearer: stale.accessToken)
            #expect(bare.goTrueErrorCode == "reauthentication_needed")
            #expect(bare.text.contains("reauthenticate"), "the message names the way out")

            // GoTrue's clients call it with GET; the answer is an empty object.
            let sent = try await client.send(.get, "/auth/v1/reauthenticate", bearer: stale.accessToken)
            #expect(sent.status == .ok, "\(sent.text)")
            #expect(sent.text == "{}")
            let message = try await mail.next()
            #expect(message.subject.hasPrefix("Confirm it is you"))
            #expect(!message.text.contains("/auth/v1/verify"), "a nonce email signs nobody in: no link")
            let nonce = try #require(message.code)

            // A nonce is no sign-in code: /verify refuses it, and leaves it usable.
            #expect(try await client.verify(type: "email", email: "ada@example.com", code: nonce).status == .forbidden)
            let wrongDigits = nonce == "000000" ? "111111" : "000000"
            let wrong = try await client.send(
                .put, "/auth/v1/user", json: #"{"password":"first-password","nonce":"\#(wrongDigits)"}"#, bearer: stale.accessToken)
            #expect(wrong.status == .badRequest)
            #expect(wrong.goTrueErrorCode == "reauthentication_not_valid")

            let changed = try await client.send(
                .put, "/auth/v1/user", json: #"{"password":"first-password","nonce":"\#(nonce)"}"#, bearer: stale.accessToken)
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(try await client.signIn("ada@example.com", password: "first-password").status == .ok)
            // Spent: the same nonce proves nothing twice.
            let again = try await client.send(
                .put, "/auth/v1/user", json: #"{"password":"second-password","nonce":"\#(nonce)"}"#, bearer: stale.accessToken)
            #expect(again.goTrueErrorCode == "reauthentication_not_valid")
        }
    }

    @Test func aNonceDeletesTheAccountThroughTheGateway() async throws {
        try await EmailTestServer.run { test, client, mail in
            let stale = try await Self.codeOnlyPerson(test, client, mail)
            let bare = try await client.send(.delete, "/v1/auth/me", bearer: stale.accessToken)
            #expect(bare.status == .forbidden)
            #expect(bare.gatewayCode == "REAUTHENTICATION_REQUIRED")
            #expect(try await client.send(.post, "/auth/v1/reauthenticate", bearer: stale.accessToken).status == .ok)
            let nonce = try #require(try await mail.next().code)
            let deleted = try await client.send(.delete, "/v1/auth/me", json: #"{"nonce":"\#(nonce)"}"#, bearer: stale.accessToken)
            #expect(deleted.status == .ok, "\(deleted.text)")
            #expect(try await client.refresh(stale.refreshToken).status != .ok)
        }
    }

    @Test func wrongNoncesUseUpTheCodeAndTheRequestIsLimitedAndAudited() async throws {
        try await EmailTestServer.run { test, client, mail in
            let stale = try await Self.codeOnlyPerson(test, client, mail)
            #expect(try await client.send(.get, "/auth/v1/reauthenticate").status == .unauthorized)
            #expect(try await client.send(.get, "/auth/v1/reauthenticate", bearer: stale.accessToken).status == .ok)
            let nonce = try #require(try await mail.next().code)
            // One email a minute per address, as every code.
            let soon = try await client.send(.get, "/auth/v1/reauthenticate", bearer: stale.accessToken)
            #expect(soon.status == .tooManyRequests)
            #expect(soon.goTrueErrorCode == "over_email_send_rate_limit")
            let wrongDigits = nonce == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                let wrong = try await client.send(
                    .put, "/auth/v1/user", json: #"{"password":"first-password","nonce":"\#(wrongDigits)"}"#, bearer: stale.accessToken)
                #expect(wrong.goTrueErrorCode == "reauthentication_not_valid")
            }
            // Five wrong tries and the code is gone, right or not.
            let late = try await client.send(
                .put, "/auth/v1/user", json: #"{"password":"first-password","nonce":"\#(nonce)"}"#, bearer: stale.accessToken)
            #expect(late.goTrueErrorCode == "reauthentication_not_valid")
            let key = try await test.server.serviceRoleKey(lifetime: 3600)
            let audit = try await client.send(.get, "/auth/v1/admin/audit?per_page=50", bearer: key)
            #expect(audit.text.contains("reauthentication_requested"))
        }
    }

    /// The SDK end to end: `reauthenticate()` then the nonce with a new password
    /// and with a deletion, against the live server and its mail.
    @Test func theSDKReauthenticatesAndSpendsTheNonce() async throws {
        try await EmailTestServer.run(configure: { $0.emailsPerMinutePerAddress = 5 }) { test, client, mail in
            let port = try #require(client.port)
            let sdk = test.sdkClient(port: port)
            try await sdk.sendEmailCode(to: "ada@example.com")
            let code = try #require(try await mail.next().code)
            try await sdk.verifyEmailCode(email: "ada@example.com", code: code)
            await test.clock.advance(by: 601)
            await #expect(throws: SessionError.reauthenticationRequired) { try await sdk.updatePassword("first-password") }
            try await sdk.reauthenticate()
            let nonce = try #require(try await mail.next().code)
            let wrong = nonce == "000000" ? "111111" : "000000"
            await #expect(throws: SessionError.reauthenticationRequired) {
                try await sdk.updatePassword("first-password", nonce: wrong)
            }
            try await sdk.updatePassword("first-password", nonce: nonce)
            #expect(try await client.signIn("ada@example.com", password: "first-password").status == .ok)
            #expect(sdk.currentState.session != nil, "a refused proof never signed the SDK out")
            // Deletion: refused without proof, done with a fresh nonce (the first is spent).
            await #expect(throws: SessionError.reauthenticationRequired) { try await sdk.deleteAccount(nonce: nonce) }
            try await sdk.reauthenticate()
            let second = try #require(try await mail.next().code)
            try await sdk.deleteAccount(nonce: second)
            #expect(sdk.currentState == .signedOut)
            #expect(try await test.server.store.user(email: "ada@example.com") == nil)
        }
    }
}
