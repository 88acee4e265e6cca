import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Issue 40, items 1 and 9 (attacks): a flood of anonymous accounts from one
/// address, and an anonymous user taking a second factor or a passkey.
struct AnonymousAttackTests {
    @Test func aFloodPastThirtyAnHourFromOneAddressIsRefused() async throws {
        let server = try await TestServer.make { $0.anonymousSignIns = true }
        try await server.run { client in
            // Spread over the hour, under the per-minute limit: only the hourly rule can refuse.
            for index in 0..<30 {
                let response = try await client.send(.post, "/auth/v1/signup", json: "{}")
                #expect(response.status == .ok, "sign-in \(index + 1)")
                await server.clock.advance(by: 60)
            }
            let refused = try await client.send(.post, "/auth/v1/signup", json: "{}")
            // GoTrue's limitHandler: 429 over_request_rate_limit (internal/api/middleware.go).
            #expect(refused.status == .tooManyRequests)
            #expect(refused.goTrueErrorCode == "over_request_rate_limit")
            let retryAfter = try #require(refused.headers[.retryAfter].flatMap(Int.init))
            #expect(retryAfter > 0 && retryAfter <= 3600)
            #expect(try await server.server.store.users(page: 1, perPage: 100).total == 30)
            // A password sign-up from the same address is not held by the anonymous budget.
            #expect(try await client.signUp("ada@example.com").user?.email == "ada@example.com")
            // The window ends: anonymous sign-ins work again.
            await server.clock.advance(by: Double(retryAfter))
            #expect(try await client.send(.post, "/auth/v1/signup", json: "{}").status == .ok)
        }
    }

    @Test func anonymousMetadataIsHeldToTheSameShapeAsAnyOther() async throws {
        let server = try await TestServer.make { $0.anonymousSignIns = true }
        try await server.run { client in
            // Issue 29, item 4's limits (MetadataLimits): 16 levels deep, 1000 keys wide.
            let deep = String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40)
            let wide = "{" + (0...1_000).map { #""k\#($0)":1"# }.joined(separator: ",") + "}"
            for data in [deep, wide] {
                let refused = try await client.send(.post, "/auth/v1/signup", json: #"{"data":\#(data)}"#)
                #expect(refused.status == .badRequest || refused.status == .unprocessableContent, "\(refused.status)")
            }
            #expect(try await server.server.store.users(page: 1, perPage: 10).total == 0)
        }
    }

    @Test func theHourlyRuleIsInTheRegistryAtGoTruesThirty() {
        #expect(RateLimitRule.all.contains(.anonymousSignInIP))
        #expect(RateLimitRule.anonymousSignInIP.window == 3600)
        #expect(RateLimitRule.anonymousSignInIP.limit(in: AuthServerConfiguration()) == 30)
    }

    @Test func anAnonymousUserCannotEnrolASecondFactor() async throws {
        let server = try await TestServer.make { $0.anonymousSignIns = true }
        try await server.run { client in
            let session = try await client.send(.post, "/auth/v1/signup", json: "{}").decode(TokenResponse.self)
            let response = try await client.send(
                .post, "/auth/v1/factors", json: #"{"factor_type":"totp","friendly_name":"phone"}"#, bearer: session.accessToken)
            // GoTrue's requireNotAnonymous (internal/api/auth.go): NewForbiddenError(ErrorCodeNoAuthorization, …).
            #expect(response.status == .forbidden)
            #expect(response.goTrueErrorCode == "no_authorization")
            #expect(try response.jsonObject()["msg"] as? String == "Anonymous user not allowed to perform these actions")
            // Nothing was enrolled, and the session still works.
            let me = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken)
            #expect(me.status == .ok)
            #expect(try me.decode(SessionUser.self).factors == nil)
            // A person with an email enrols as before.
            let ada = try await client.signUp()
            let enrolled = try await client.send(
                .post, "/auth/v1/factors", json: #"{"factor_type":"totp"}"#, bearer: ada.accessToken)
            #expect(enrolled.status == .ok)
        }
    }

    @Test func anAnonymousUserCannotRegisterAPasskey() async throws {
        let server = try await TestServer.make { configuration in
            configuration.anonymousSignIns = true
            configuration.passkeys = PasskeyConfiguration(
                rpID: "example.com", rpDisplayName: "Example", origins: ["https://example.com"])
        }
        try await server.run { client in
            let session = try await client.send(.post, "/auth/v1/signup", json: "{}").decode(TokenResponse.self)
            let options = try await client.send(.post, "/auth/v1/passkeys/registration/options", bearer: session.accessToken)
            #expect(options.status == .forbidden)
            #expect(options.goTrueErrorCode == "no_authorization")
            let verify = try await client.send(
                .post, "/auth/v1/passkeys/registration/verify", json: #"{"challenge_id":"x","credential":{}}"#,
                bearer: session.accessToken)
            #expect(verify.status == .forbidden)
            #expect(verify.goTrueErrorCode == "no_authorization")
            let user = try #require(session.user)
            #expect(try await server.server.store.passkeys(userID: user.id).isEmpty)
            // A person with an email still gets options.
            let ada = try await client.signUp()
            #expect(try await client.send(.post, "/auth/v1/passkeys/registration/options", bearer: ada.accessToken).status == .ok)
        }
    }
}
