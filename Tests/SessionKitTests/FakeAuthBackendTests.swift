import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// The fake must behave like the server for app developers' tests to mean anything.
struct FakeAuthBackendTests {
    func refresh(_ fake: FakeAuthBackend, _ token: String) async throws -> (Int, Data) {
        let request = try fake.backend.request(for: .refresh(refreshToken: token))
        let (data, response) = try await fake.send(request)
        return (response.statusCode, data)
    }

    @Test func rotatesWithGraceAndDetectsReuse() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        await fake.createUser(email: "a@example.com", password: "secret-123")
        let first = try #require(await fake.issueSession(email: "a@example.com"))

        let (status, body) = try await refresh(fake, first.refreshToken)
        #expect(status == 200)
        let second = try WireCoding.decoder().decode(TokenResponse.self, from: body)
        #expect(second.refreshToken != first.refreshToken)
        #expect(try UnverifiedJWT(second.accessToken).claims.exp != nil)

        // Within the grace the old token returns the same successor.
        await clock.advance(by: 5)
        let (graceStatus, graceBody) = try await refresh(fake, first.refreshToken)
        #expect(graceStatus == 200)
        #expect(try WireCoding.decoder().decode(TokenResponse.self, from: graceBody).refreshToken == second.refreshToken)

        // After it, reuse revokes the family.
        await clock.advance(by: 10)
        let (reuseStatus, reuseBody) = try await refresh(fake, first.refreshToken)
        #expect(reuseStatus == 400)
        #expect(ServerErrorBody.parse(reuseBody)?.goTrueErrorCode == .refreshTokenAlreadyUsed)
        #expect(await !fake.isFamilyActive(refreshToken: second.refreshToken))
        let (revokedStatus, _) = try await refresh(fake, second.refreshToken)
        #expect(revokedStatus == 400)
        #expect(await fake.count(.refresh) == 4)
    }

    @Test func unknownTokensAndBadBodiesAreTypedErrors() async throws {
        let fake = FakeAuthBackend(clock: ManualClock())
        let (status, body) = try await refresh(fake, "never-issued")
        #expect(status == 400)
        #expect(ServerErrorBody.parse(body)?.goTrueErrorCode == .refreshTokenNotFound)

        var request = try fake.backend.request(for: .refresh(refreshToken: "x"))
        request.httpBody = Data("{".utf8)
        let (_, response) = try await fake.send(request)
        #expect(response.statusCode == 400)
    }

    @Test func gatewayRejectsMissingAndExpiredTokens() async throws {
        let clock = ManualClock()
        let fake = FakeAuthBackend(clock: clock)
        await fake.createUser(email: "a@example.com", password: "secret-123")
        let session = try #require(await fake.issueSession(email: "a@example.com"))
        var request = URLRequest(url: fake.baseURL.appendingPathComponent("v1/auth/me"))
        let (missingBody, missing) = try await fake.send(request)
        #expect(missing.statusCode == 401)
        #expect(ServerErrorBody.parse(missingBody)?.code == .authRequired)
        request.setValue("Bearer \(session.accessToken)", forHTTPHeaderField: "Authorization")
        #expect(try await fake.send(request).1.statusCode == 200)
        clock.set(to: clock.now.addingTimeInterval(3600 + 61))
        let (expiredBody, expired) = try await fake.send(request)
        #expect(expired.statusCode == 401)
        #expect(ServerErrorBody.parse(expiredBody)?.code == .sessionExpired)
        #expect(expired.value(forHTTPHeaderField: "WWW-Authenticate") == "Bearer error=\"invalid_token\"")
        #expect(expired.value(forHTTPHeaderField: "Date") != nil)
    }
}
