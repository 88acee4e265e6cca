import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionServer

/// Passkeys are managed at AAL2 once the user has a verified factor (issue 38,
/// item 4; docs/MFA.md): a stolen AAL1 session must not add a way in that skips it.
struct FactorPasskeyStepUpTests {
    @Test func passkeyManagementWithAnAAL1SessionOfAnEnrolledUserIsInsufficientAAL() async throws {
        let test = try await PasskeyTestSupport.server()
        try await test.run { client in
            let session = try await client.signUp()
            let (_, aal2) = try await client.enrollAndVerify(session.accessToken, at: test.clock.now)
            let authenticator = SoftwareAuthenticator()
            let passkeyID = try #require(
                try await PasskeyTestSupport.register(client, authenticator, bearer: aal2.accessToken).jsonObject()["id"] as? String)
            let aal1 = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let options = try await client.send(.post, "/auth/v1/passkeys/registration/options", bearer: aal1.accessToken)
            #expect(options.status == .forbidden)
            #expect(options.goTrueErrorCode == "insufficient_aal")
            let rename = try await client.send(
                .patch, "/auth/v1/passkeys/\(passkeyID)", json: #"{"friendly_name":"mine now"}"#, bearer: aal1.accessToken)
            #expect(rename.goTrueErrorCode == "insufficient_aal")
            let removal = try await client.send(.delete, "/auth/v1/passkeys/\(passkeyID)", bearer: aal1.accessToken)
            #expect(removal.goTrueErrorCode == "insufficient_aal")
            #expect(try await test.server.store.passkeys(userID: try #require(aal1.user?.id)).count == 1)
            // The refusal is a step-up, never a sign-out: the AAL1 session still refreshes.
            #expect(try await client.refresh(aal1.refreshToken).status == .ok)
        }
    }
}
