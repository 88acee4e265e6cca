import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionKitTesting
import SessionCore
import Testing

@testable import SessionServer

/// `PUT /auth/v1/user`: bounded in rate (each password change costs a
/// bcrypt hash) and in what it stores.
struct UserUpdateLimitsTests {
    static func metadata(_ key: String, kilobytes: Int) -> String {
        #"{"data":{"\#(key)":"\#(String(repeating: "x", count: kilobytes * 1024))"}}"#
    }

    /// Before: each merge was checked only by the 64 KiB body limit, so small merges grew a row without end.
    @Test(arguments: TestDatabase.all)
    func metadataIsCappedInTotalNotPerMerge(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp()
            let first = try await client.send(.put, "/auth/v1/user", json: Self.metadata("a", kilobytes: 40), bearer: session.accessToken)
            #expect(first.status == .ok)
            let second = try await client.send(.put, "/auth/v1/user", json: Self.metadata("b", kilobytes: 40), bearer: session.accessToken)
            #expect(second.status == .badRequest, "\(second.status)")
            #expect(second.text.contains("64 KiB"))
            // Nothing of the refused merge was kept; removing a key makes room again.
            let user = try await client.send(.get, "/auth/v1/user", bearer: session.accessToken).decode(SessionUser.self)
            #expect(user.userMetadata["b"] == nil)
            let cleared = try await client.send(.put, "/auth/v1/user", json: #"{"data":{"a":null}}"#, bearer: session.accessToken)
            #expect(cleared.status == .ok)
            let third = try await client.send(.put, "/auth/v1/user", json: Self.metadata("b", kilobytes: 40), bearer: session.accessToken)
            #expect(third.status == .ok)
        }
    }

    /// Before: no limit, so one session could make the server hash passwords as fast as it could send.
    @Test func updatesAreRateLimitedPerUser() async throws {
        let test = try await TestServer.make { $0.userUpdatesPerMinutePerUser = 2 }
        try await test.run { client in
            let session = try await client.signUp()
            var statuses: [HTTPResponse.Status] = []
            for attempt in 0..<3 {
                let body = #"{"password":"another-horse-\#(attempt)"}"#
                statuses.append(try await client.send(.put, "/auth/v1/user", json: body, bearer: session.accessToken).status)
            }
            #expect(statuses == [.ok, .ok, .tooManyRequests])
            await test.clock.advance(by: 61)
            let later = try await client.send(.put, "/auth/v1/user", json: #"{"data":{"k":1}}"#, bearer: session.accessToken)
            #expect(later.status == .ok)
        }
    }
}
