import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKit
import SessionKitTesting
import Testing
@testable import SessionServer

/// The SDK against a live server whose operator bans the signed-in person:
/// the next refresh ends the session as `accountSuspended`, not as an expiry.
struct BannedSessionTests {
    @Test func theSDKShowsABanAsItsOwnReason() async throws {
        let test = try await TestServer.make()
        try await test.runLive { client in
            let port = try #require(client.port)
            let sdk = test.sdkClient(port: port)
            guard case .signedIn(let session) = try await sdk.signUp(email: "ada@example.com", password: "correct-horse")
            else {
                Issue.record("sign-up did not sign in")
                return
            }
            let id = try #require(session.user?.id)
            let key = try await test.server.serviceRoleKey(lifetime: 3600)
            let ban = try await client.send(.put, "/auth/v1/admin/users/\(id)", json: #"{"ban_duration":"24h"}"#, bearer: key)
            #expect(ban.status == .ok)

            let error = await #expect(throws: SessionError.self) { try await sdk.refresh() }
            #expect(error == .accountSuspended)
            guard case .expired(let reason) = sdk.currentState else {
                Issue.record("a banned session stayed \(sdk.currentState)")
                return
            }
            #expect(reason == SessionError.accountSuspended.message)
            let again = await #expect(throws: SessionError.self) {
                try await sdk.signIn(email: "ada@example.com", password: "correct-horse")
            }
            #expect(again == .accountSuspended)
        }
    }
}
