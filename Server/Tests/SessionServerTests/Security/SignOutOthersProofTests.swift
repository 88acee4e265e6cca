import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 37, item 8 (an attack): a stolen access token older than the
/// re-authentication window signed the owner's other devices out
/// (`/logout?scope=others`, `DELETE /v1/sessions/{id}`) without proof, while
/// `/account` asked for proof for the same action. Both ask for it now.
struct SignOutOthersProofTests {
    @Test func aStolenTokenCannotSignTheOwnersOtherDevicesOut() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let phone = try await client.signUp("ada@example.com")
            await test.clock.advance(by: 1)
            let laptop = try await client.signIn("ada@example.com", password: "correct-horse").decode(TokenResponse.self)
            let userID = try #require(phone.user?.id)
            // Newest first: the laptop's, then the phone's.
            let ids = try await test.server.store.activeSessions(userID: userID, now: test.clock.now).map(\.id)
            try #require(ids.count == 2)
            let (laptopID, phoneID) = (ids[0], ids[1])
            await test.clock.advance(by: 601)
            // The thief holds the phone's access token, signed in more than ten minutes ago.
            let others = try await client.send(.post, "/auth/v1/logout?scope=others", bearer: phone.accessToken)
            #expect(others.status == .badRequest)
            #expect(others.goTrueErrorCode == "reauthentication_needed")
            let device = try await client.send(.delete, "/v1/sessions/\(laptopID)", bearer: phone.accessToken)
            #expect(device.status == .forbidden)
            #expect(device.gatewayCode == "REAUTHENTICATION_REQUIRED")
            #expect(try await client.refresh(laptop.refreshToken).status == .ok, "the laptop is still signed in")

            // The owner, with the password: done.
            let proven = try await client.send(
                .delete, "/v1/sessions/\(laptopID)", json: #"{"current_password":"correct-horse"}"#, bearer: phone.accessToken)
            #expect(proven.status == .ok)
            #expect(try await client.send(
                .post, "/auth/v1/logout?scope=others", json: #"{"current_password":"correct-horse"}"#, bearer: phone.accessToken
            ).status == .noContent)
            // A device's own session needs no proof.
            #expect(try await client.send(.delete, "/v1/sessions/\(phoneID)", bearer: phone.accessToken).status == .ok)
        }
    }
}
