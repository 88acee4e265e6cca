import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// GoTrue before v2.164 answers a refused refresh with OAuth's
/// `{"error":"invalid_grant","error_description":"Invalid Refresh Token: …"}`
/// and no code (docs/PROTOCOL.md, "Old GoTrue"). Its two known texts are the
/// server's verdict; any other `invalid_grant` stays a refusal.
@Suite(.timeLimit(.minutes(1)))
struct OldGoTrueTests {
    static func oldGoTrue(_ description: String) -> FakeFault {
        .status(400, body: Data(#"{"error":"invalid_grant","error_description":"\#(description)"}"#.utf8))
    }

    @Test func refreshTokenNotFoundEndsTheSessionOnce() async throws {
        let f = await Fixture.make()
        let events = EventLog(f.client)
        try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(Self.oldGoTrue("Invalid Refresh Token: Refresh Token Not Found"), on: .refresh)
        await #expect(throws: SessionError.sessionExpired) { try await f.client.accessToken() }
        #expect(try await f.store.load()?.holdsSession != true)
        let seen = await events.finish(f.client)
        #expect(seen.expiredCount == 1)
    }

    @Test func alreadyUsedEndsTheSessionWhenTheStoreHoldsNothingNewer() async throws {
        let f = await Fixture.make()
        try await f.signIn()
        f.expireAccessToken()
        await f.fake.inject(Self.oldGoTrue("Invalid Refresh Token: Already Used"), on: .refresh)
        await #expect(throws: SessionError.sessionExpired) { try await f.client.accessToken() }
        #expect(try await f.store.load()?.holdsSession != true)
    }

    @Test func anyOtherInvalidGrantIsARefusalAndKeepsTheSession() async throws {
        let f = await Fixture.make()
        let old = try await f.signIn()
        f.expireAccessToken()
        // A lookalike: the prefix alone, other words, or the known text under another error.
        for body in [
            #"{"error":"invalid_grant","error_description":"Invalid Refresh Token: Something Else"}"#,
            #"{"error":"invalid_request","error_description":"Invalid Refresh Token: Refresh Token Not Found"}"#,
        ] {
            await f.fake.inject(.status(400, body: Data(body.utf8)), on: .refresh)
            await #expect(throws: SessionError.refreshRefused) { try await f.client.refresh() }
            #expect(try await f.storedRefreshToken() == old.refreshToken)
        }
    }

    @Test func theKnownTextsAreReadOnlyInOAuthsShape() {
        let codes = SessionEndingCodes.goTrue
        #expect(codes.reading(ServerErrorBody(goTrueErrorCode: .invalidGrant, message: SessionEndingCodes.legacyNotFound)) == .ended)
        #expect(codes.reading(ServerErrorBody(goTrueErrorCode: .invalidGrant, message: SessionEndingCodes.legacyAlreadyUsed)) == .alreadyUsed)
        #expect(codes.reading(ServerErrorBody(gatewayCode: .init("X"), goTrueErrorCode: .invalidGrant, message: SessionEndingCodes.legacyNotFound)) == nil)
        #expect(SessionEndingCodes(ended: []).reading(ServerErrorBody(goTrueErrorCode: .invalidGrant, message: SessionEndingCodes.legacyNotFound)) == nil)
    }
}
