import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Verify swaps the session's refresh token as a rotation does (GoTrue's
/// `updateMFASessionAndClaims`): a client that lost the verify answer and
/// refreshes with its token of before gets the successor within the grace
/// (docs/MFA.md, "The session after verify").
struct FactorVerifyRotationTests {
    @Test(arguments: TestDatabase.all)
    func theTokenOfBeforeVerifyGetsTheAAL2SuccessorWithinTheGrace(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let (_, verified) = try await client.enrollAndVerify(session.accessToken, at: test.clock.now)
            await test.clock.advance(by: SessionDefaults.refreshReuseGrace / 2)
            // The verify answer was lost: the client refreshes with what it saved.
            let retried = try await client.refresh(session.refreshToken)
            #expect(retried.status == .ok)
            let successor = try retried.decode(TokenResponse.self)
            #expect(successor.refreshToken == verified.refreshToken)
            let claims = try payload(of: successor.accessToken)
            #expect(claims["aal"] as? String == "aal2")
            #expect(claims["session_id"] as? String == (try payload(of: session.accessToken))["session_id"] as? String)
            // The successor goes on rotating as any refresh token.
            let next = try await client.refresh(successor.refreshToken).decode(TokenResponse.self)
            #expect(try payload(of: next.accessToken)["aal"] as? String == "aal2")
        }
    }

    @Test func theTokenOfBeforeVerifyAfterTheGraceIsAReuse() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let (_, verified) = try await client.enrollAndVerify(session.accessToken, at: test.clock.now)
            await test.clock.advance(by: SessionDefaults.refreshReuseGrace + 1)
            // Past the grace, the AAL1 token is not handed the AAL2 session (no recovery of the
            // unused successor either): the family ends, as on any reuse.
            let late = try await client.refresh(session.refreshToken)
            #expect(late.goTrueErrorCode == "refresh_token_already_used")
            #expect(try await client.refresh(verified.refreshToken).goTrueErrorCode == "refresh_token_already_used")
        }
    }
}
