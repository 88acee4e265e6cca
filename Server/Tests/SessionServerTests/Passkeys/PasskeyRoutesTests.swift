import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// `/auth/v1/passkeys` end to end through the router, with a software
/// authenticator (issue 39, items 1-3 and 6).
struct PasskeyRoutesTests {
    typealias Support = PasskeyTestSupport

    @Test(arguments: TestDatabase.all)
    func registersListsAndSignsInWithAPasskey(database: TestDatabase) async throws {
        let test = try await Support.server(database)
        try await test.run { client in
            let session = try await client.signUp()
            var authenticator = SoftwareAuthenticator()
            authenticator.flags = 0x1d  // a synced passkey: BE and BS
            let registered = try await Support.register(client, authenticator, bearer: session.accessToken)
            #expect(registered.status == .ok, "\(registered.text)")
            let passkey = try registered.jsonObject()
            #expect(passkey["backup_eligible"] as? Bool == true)
            #expect(passkey["backed_up"] as? Bool == true)

            let list = try await client.send(.get, "/auth/v1/passkeys", bearer: session.accessToken)
            let items = try #require(try JSONSerialization.jsonObject(with: Data(list.body.readableBytesView)) as? [[String: Any]])
            #expect(items.count == 1)
            #expect(items.first?["id"] as? String == passkey["id"] as? String)

            let signedIn = try await Support.signIn(client, authenticator, userID: session.user?.id ?? "")
            let tokens = try signedIn.decode(TokenResponse.self)
            #expect(tokens.user?.id ?? "" == session.user?.id ?? "")
            let claims = try ReauthenticationTests.payload(tokens.accessToken)
            let amr = try #require(claims["amr"] as? [[String: Any]])
            #expect(amr.first?["method"] as? String == "passkey")
            #expect(claims["aal"] as? String == "aal1")
            // The session it started refreshes like any other.
            #expect(try await client.refresh(tokens.refreshToken).status == .ok)

            let used = try await test.server.store.passkeys(userID: session.user?.id ?? "")
            #expect(used.first?.lastUsedAt != nil)
            let actions = try await test.server.store.auditLog(page: 1, perPage: 50).entries.map(\.action)
            #expect(actions.contains("passkey_registered"))
            #expect(actions.contains("passkey_used"))
        }
    }

    @Test func answersPasskeyDisabledWhenOff() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            for (method, path) in [
                (HTTPRequest.Method.post, "/auth/v1/passkeys/authentication/options"), (.post, "/auth/v1/passkeys/registration/options"),
                (.get, "/auth/v1/passkeys"), (.delete, "/auth/v1/passkeys/x"),
            ] {
                let response = try await client.send(method, path)
                #expect(response.status == .notFound)
                #expect(response.goTrueErrorCode == "passkey_disabled")
            }
            #expect(try await client.send(.get, "/.well-known/apple-app-site-association").status == .notFound)
        }
    }

    @Test func refusesAReplayedOrExpiredChallenge() async throws {
        let test = try await Support.server()
        try await test.run { client in
            let session = try await client.signUp()
            let authenticator = SoftwareAuthenticator()
            #expect(try await Support.register(client, authenticator, bearer: session.accessToken).status == .ok)
            let options = try Support.challenge(try await client.send(.post, "/auth/v1/passkeys/authentication/options"))
            let body = Support.verifyBody(
                options.id, authenticator.assertionJSON(challenge: options.challenge, userHandle: session.user?.id ?? ""))
            #expect(try await client.send(.post, "/auth/v1/passkeys/authentication/verify", json: body).status == .ok)
            let replay = try await client.send(.post, "/auth/v1/passkeys/authentication/verify", json: body)
            #expect(replay.goTrueErrorCode == "webauthn_challenge_not_found")

            let late = try Support.challenge(try await client.send(.post, "/auth/v1/passkeys/authentication/options"))
            await test.clock.advance(by: 301)
            let expired = try await client.send(
                .post, "/auth/v1/passkeys/authentication/verify",
                json: Support.verifyBody(late.id, authenticator.assertionJSON(challenge: late.challenge, userHandle: session.user?.id ?? "")))
            #expect(expired.goTrueErrorCode == "webauthn_challenge_expired")
        }
    }

    @Test func refusesAnotherUsersCredentialAndChallenge() async throws {
        let test = try await Support.server()
        try await test.run { client in
            let ada = try await client.signUp("ada@example.com")
            let bob = try await client.signUp("bob@example.com")
            let adas = SoftwareAuthenticator()
            let registered = try await Support.register(client, adas, bearer: ada.accessToken).jsonObject()
            // Ada's passkey presented as Bob's.
            let asBob = try await Support.signIn(client, adas, userID: bob.user?.id ?? "")
            #expect(asBob.goTrueErrorCode == "webauthn_verification_failed")
            // Ada's passkey registered again, by Bob.
            let twice = try await Support.register(client, adas, bearer: bob.accessToken)
            #expect(twice.goTrueErrorCode == "webauthn_credential_exists")
            // Ada's registration challenge answered by Bob.
            let options = try Support.challenge(try await client.send(.post, "/auth/v1/passkeys/registration/options", bearer: ada.accessToken))
            let stolen = try await client.send(
                .post, "/auth/v1/passkeys/registration/verify",
                json: Support.verifyBody(options.id, SoftwareAuthenticator().registrationJSON(challenge: options.challenge)),
                bearer: bob.accessToken)
            #expect(stolen.goTrueErrorCode == "webauthn_challenge_not_found")
            // Bob can neither rename nor remove Ada's passkey.
            let id = try #require(registered["id"] as? String)
            let rename = try await client.send(.patch, "/auth/v1/passkeys/\(id)", json: #"{"friendly_name":"mine"}"#, bearer: bob.accessToken)
            #expect(rename.status == .notFound)
            #expect(try await client.send(.delete, "/auth/v1/passkeys/\(id)", bearer: bob.accessToken).status == .notFound)
            #expect(try await test.server.store.passkeys(userID: ada.user?.id ?? "").count == 1)
        }
    }

    @Test func refusesACounterThatGoesBack() async throws {
        let test = try await Support.server()
        try await test.run { client in
            let session = try await client.signUp()
            var authenticator = SoftwareAuthenticator()
            authenticator.signCount = 1
            #expect(try await Support.register(client, authenticator, bearer: session.accessToken).status == .ok)
            authenticator.signCount = 5
            #expect(try await Support.signIn(client, authenticator, userID: session.user?.id ?? "").status == .ok)
            authenticator.signCount = 4
            let cloned = try await Support.signIn(client, authenticator, userID: session.user?.id ?? "")
            #expect(cloned.goTrueErrorCode == "webauthn_verification_failed")
            #expect(cloned.text.contains("counter"))
        }
    }

    @Test func renamesAndRemovesAPasskey() async throws {
        let test = try await Support.server()
        try await test.run { client in
            let session = try await client.signUp()
            let authenticator = SoftwareAuthenticator()
            let id = try #require(try await Support.register(client, authenticator, bearer: session.accessToken).jsonObject()["id"] as? String)
            let renamed = try await client.send(
                .patch, "/auth/v1/passkeys/\(id)", json: #"{"friendly_name":"Work laptop"}"#, bearer: session.accessToken)
            #expect(try renamed.jsonObject()["friendly_name"] as? String == "Work laptop")
            let bad = try await client.send(.patch, "/auth/v1/passkeys/\(id)", json: #"{"friendly_name":""}"#, bearer: session.accessToken)
            #expect(bad.goTrueErrorCode == "validation_failed")
            #expect(try await client.send(.delete, "/auth/v1/passkeys/\(id)", bearer: session.accessToken).status == .noContent)
            #expect(try await Support.signIn(client, authenticator, userID: session.user?.id ?? "").goTrueErrorCode == "webauthn_verification_failed")
            let actions = try await test.server.store.auditLog(page: 1, perPage: 50).entries.map(\.action)
            #expect(actions.contains("passkey_renamed") && actions.contains("passkey_removed"))
        }
    }

    @Test func deletingTheAccountDeletesItsPasskeys() async throws {
        let test = try await Support.server()
        try await test.run { client in
            let session = try await client.signUp()
            let authenticator = SoftwareAuthenticator()
            #expect(try await Support.register(client, authenticator, bearer: session.accessToken).status == .ok)
            #expect(try await client.send(.delete, "/v1/auth/me", bearer: session.accessToken).status == .ok)
            #expect(try await test.server.store.passkeys(userID: session.user?.id ?? "").isEmpty)
            #expect(try await Support.signIn(client, authenticator, userID: session.user?.id ?? "").goTrueErrorCode == "webauthn_verification_failed")
        }
    }

    @Test func capsPasskeysPerUser() async throws {
        let test = try await Support.server { $0.maximumPerUser = 2 }
        try await test.run { client in
            let session = try await client.signUp()
            for _ in 0..<2 {
                #expect(try await Support.register(client, SoftwareAuthenticator(), bearer: session.accessToken).status == .ok)
            }
            let third = try await client.send(.post, "/auth/v1/passkeys/registration/options", bearer: session.accessToken)
            #expect(third.goTrueErrorCode == "too_many_passkeys")
        }
    }

    @Test func limitsAuthenticationOptionsPerIP() async throws {
        let test = try await Support.server { $0.authenticationOptionsPerMinutePerIP = 3 }
        try await test.run { client in
            for _ in 0..<3 {
                #expect(try await client.send(.post, "/auth/v1/passkeys/authentication/options").status == .ok)
            }
            let limited = try await client.send(.post, "/auth/v1/passkeys/authentication/options")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] != nil)
        }
    }

    @Test func refusesRegistrationWithoutASession() async throws {
        let test = try await Support.server()
        try await test.run { client in
            let options = try await client.send(.post, "/auth/v1/passkeys/registration/options")
            let list = try await client.send(.get, "/auth/v1/passkeys")
            #expect(options.status == .unauthorized)
            #expect(list.status == .unauthorized)
        }
    }

    @Test func refusesBadCredentialJSONWithAFieldNamed() async throws {
        let test = try await Support.server()
        try await test.run { client in
            let options = try Support.challenge(try await client.send(.post, "/auth/v1/passkeys/authentication/options"))
            let body = Support.verifyBody(options.id, #"{"id":"AA","rawId":"AA","type":"public-key","response":{"clientDataJSON":"!!"}}"#)
            let response = try await client.send(.post, "/auth/v1/passkeys/authentication/verify", json: body)
            #expect(response.status == .badRequest)
            #expect(response.goTrueErrorCode == "validation_failed" || response.goTrueErrorCode == "webauthn_verification_failed")
        }
    }
}
