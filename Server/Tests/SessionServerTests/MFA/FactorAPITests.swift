import Foundation
import HTTPTypes
import NIOCore
import SQLKit
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// GoTrue's `/factors` API and assurance levels (docs/MFA.md).
struct FactorAPITests {
    @Test(arguments: TestDatabase.all)
    func enrollAnswersGoTruesShapeAndTheUserListsTheFactor(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let response = try await client.send(
                .post, "/auth/v1/factors", json: #"{"factor_type":"totp","friendly_name":"Ada's phone","issuer":"Acme Co"}"#,
                bearer: session.accessToken)
            #expect(response.status == .ok)
            let object = try response.jsonObject()
            #expect(object["type"] as? String == "totp")
            #expect(object["friendly_name"] as? String == "Ada's phone")
            let totp = try #require(object["totp"] as? [String: Any])
            let secret = try #require(totp["secret"] as? String)
            #expect(secret.count == 32)
            #expect((totp["qr_code"] as? String)?.hasPrefix("<svg") == true)
            #expect(totp["uri"] as? String == "otpauth://totp/Acme%20Co:ada@example.com?algorithm=SHA1&digits=6&issuer=Acme%20Co&period=30&secret=\(secret)")
            let user = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken).decode(SessionUser.self)
            let factor = try #require(user.factors?.first)
            #expect(factor.id == object["id"] as? String)
            #expect(factor.status == "unverified")
            #expect(factor.factorType == "totp")
            #expect(factor.friendlyName == "Ada's phone")
        }
    }

    @Test(arguments: TestDatabase.all)
    func verifyRaisesTheSessionToAAL2AndARefreshKeepsIt(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            #expect(try payload(of: session.accessToken)["aal"] as? String == "aal1")
            let factor = try await client.enroll(session.accessToken)
            let challenge = try await client.challenge(factor.id, bearer: session.accessToken)
            let challengeObject = try challenge.jsonObject()
            #expect(challengeObject["type"] as? String == "totp")
            #expect(challengeObject["expires_at"] as? Int == Int(test.clock.now.timeIntervalSince1970) + 300)
            await test.clock.advance(by: 20)
            let verified = try await client.verify(
                factor.id, challenge: try #require(challengeObject["id"] as? String), code: factor.code(at: test.clock.now),
                bearer: session.accessToken
            ).decode(TokenResponse.self)
            let claims = try payload(of: verified.accessToken)
            #expect(claims["aal"] as? String == "aal2")
            #expect(try amrMethods(of: verified.accessToken) == ["totp", "password"])
            #expect(claims["session_id"] as? String == (try payload(of: session.accessToken))["session_id"] as? String)
            #expect(verified.user?.factors?.first?.status == "verified")
            // The refresh token of before the step-up was rotated out with it.
            #expect(verified.refreshToken != session.refreshToken)
            await test.clock.advance(by: 600)
            let refreshed = try await client.refresh(verified.refreshToken).decode(TokenResponse.self)
            #expect(try payload(of: refreshed.accessToken)["aal"] as? String == "aal2")
            #expect(try amrMethods(of: refreshed.accessToken) == ["totp", "password"])
        }
    }

    @Test func enrolmentSwitchedOffIsRefusedAsGoTrueDoes() async throws {
        let test = try await TestServer.make { $0.mfa.totpEnrollEnabled = false }
        try await test.run { client in
            let session = try await client.signUp()
            let response = try await client.send(
                .post, "/auth/v1/factors", json: #"{"factor_type":"totp"}"#, bearer: session.accessToken)
            #expect(response.status == .unprocessableContent)
            #expect(response.goTrueErrorCode == "mfa_totp_enroll_not_enabled")
            let phone = try await client.send(.post, "/auth/v1/factors", json: #"{"factor_type":"phone"}"#, bearer: session.accessToken)
            #expect(phone.status == .badRequest)
        }
    }

    @Test func passwordChangeNeedsAAL2OnceAFactorIsVerified() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let first = try await client.signUp()
            let (_, aal2) = try await client.enrollAndVerify(first.accessToken, at: test.clock.now)
            let aal1 = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            #expect(aal1.user?.factors?.count == 1)
            let refused = try await client.send(.put, "/auth/v1/user", json: #"{"password":"new-horse-staple"}"#, bearer: aal1.accessToken)
            #expect(refused.status == .unauthorized)
            #expect(refused.goTrueErrorCode == "insufficient_aal")
            // A step-up, never an end: the AAL1 session still works.
            #expect(try await client.send(.get, "/auth/v1/user", bearer: aal1.accessToken).status == .ok)
            // Metadata alone needs no second factor, as in GoTrue.
            let metadata = try await client.send(.put, "/auth/v1/user", json: #"{"data":{"a":1}}"#, bearer: aal1.accessToken)
            #expect(metadata.status == .ok)
            let allowed = try await client.send(.put, "/auth/v1/user", json: #"{"password":"new-horse-staple"}"#, bearer: aal2.accessToken)
            #expect(allowed.status == .ok)
        }
    }

    @Test func enrollingAnotherFactorNeedsAAL2AndTheLimitsHold() async throws {
        let test = try await TestServer.make { $0.mfa.maximumEnrolledFactors = 3 }
        try await test.run { client in
            let first = try await client.signUp()
            let (_, aal2) = try await client.enrollAndVerify(first.accessToken, at: test.clock.now)
            let aal1 = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let refused = try await client.send(.post, "/auth/v1/factors", json: #"{"factor_type":"totp"}"#, bearer: aal1.accessToken)
            #expect(refused.status == .forbidden)
            #expect(refused.goTrueErrorCode == "insufficient_aal")
            _ = try await client.enroll(aal2.accessToken, name: "tablet")
            let sameName = try await client.send(
                .post, "/auth/v1/factors", json: #"{"factor_type":"totp","friendly_name":"tablet"}"#, bearer: aal2.accessToken)
            #expect(sameName.goTrueErrorCode == "mfa_factor_name_conflict")
            _ = try await client.enroll(aal2.accessToken, name: "laptop")
            let tooMany = try await client.send(
                .post, "/auth/v1/factors", json: #"{"factor_type":"totp","friendly_name":"watch"}"#, bearer: aal2.accessToken)
            #expect(tooMany.status == .unprocessableContent)
            #expect(tooMany.goTrueErrorCode == "too_many_enrolled_mfa_factors")
        }
    }

    @Test func unenrollingAVerifiedFactorNeedsAAL2AndLowersItsSessions() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let first = try await client.signUp()
            let (factor, aal2) = try await client.enrollAndVerify(first.accessToken, at: test.clock.now)
            let aal1 = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let refused = try await client.send(.delete, "/auth/v1/factors/\(factor.id)", bearer: aal1.accessToken)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.goTrueErrorCode == "insufficient_aal")
            let removed = try await client.send(.delete, "/auth/v1/factors/\(factor.id)", bearer: aal2.accessToken)
            #expect(removed.status == .ok)
            #expect(try removed.jsonObject()["id"] as? String == factor.id)
            let refreshed = try await client.refresh(aal2.refreshToken).decode(TokenResponse.self)
            #expect(try payload(of: refreshed.accessToken)["aal"] as? String == "aal1")
            #expect(try amrMethods(of: refreshed.accessToken) == ["password"])
            #expect(refreshed.user?.factors == nil)
        }
    }

    @Test func adminListsAndDeletesAUsersFactors() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let factor = try await client.enroll(session.accessToken)
            let key = try await test.server.serviceRoleKey(lifetime: 3600)
            let userID = try #require(session.user?.id)
            let list = try await client.send(.get, "/auth/v1/admin/users/\(userID)/factors", bearer: key)
            #expect(list.status == .ok)
            #expect(try WireCoding.decoder().decode([UserFactor].self, from: Data(list.body.readableBytesView)).map(\.id) == [factor.id])
            #expect(try await client.send(.get, "/auth/v1/admin/users/\(userID)/factors", bearer: session.accessToken).status == .forbidden)
            let deleted = try await client.send(.delete, "/auth/v1/admin/users/\(userID)/factors/\(factor.id)", bearer: key)
            #expect(deleted.status == .ok)
            #expect(try deleted.jsonObject()["id"] as? String == factor.id)
            let again = try await client.send(.delete, "/auth/v1/admin/users/\(userID)/factors/\(factor.id)", bearer: key)
            #expect(again.status == .notFound)
        }
    }

    @Test func secretsAreSealedAndUnverifiedFactorsArePrunedAfterADay() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let factor = try await client.enroll(session.accessToken)
            let stored = try await test.server.store.withTransaction { db in
                try await db.raw("SELECT secret FROM mfa_factors").all().map { try $0.decode(column: "secret", as: String.self) }
            }
            #expect(stored.count == 1)
            #expect(stored[0].hasPrefix("sealed:v1:"))
            #expect(!stored[0].contains(Base32.encode(factor.secret)))
            await test.clock.advance(by: 86_401)
            try await test.server.store.pruneExpired(now: test.clock.now)
            #expect(try await test.server.store.factors(userID: try #require(session.user?.id)).isEmpty)
        }
    }
}
