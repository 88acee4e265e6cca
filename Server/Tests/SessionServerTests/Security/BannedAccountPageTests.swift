import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SQLKit
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 29, item 7: a ban did not end `/account`: a banned person's page
/// kept changing the password for up to 12 h (the page's lifetime).
struct BannedAccountPageTests {
    @Test(arguments: TestDatabase.all)
    func aBanEndsTheAccountPage(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let key = try await test.server.serviceRoleKey(lifetime: 3600)
            let user = try await client.signUp("ada@example.com")
            let signedIn = try await WebConsoleTests.form(client, "/account/sign-in", "email=ada%40example.com&password=correct-horse")
            let cookie = try #require(WebConsoleTests.cookie(signedIn))
            let page = try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
            let csrf = try #require(WebConsoleTests.csrf(page))

            let ban = try await client.send(
                .put, "/auth/v1/admin/users/\(try #require(user.user?.id))", json: #"{"ban_duration":"24h"}"#, bearer: key)
            #expect(ban.status == .ok)
            let after = try await client.executeRequest(uri: "/account", method: .get, headers: [.cookie: cookie], body: nil)
            #expect(after.text.contains(#"id="sign-in""#))
            let change = try await WebConsoleTests.form(
                client, "/account/password", "csrf=\(csrf)&password=banned-but-changed", cookie: cookie)
            #expect(change.status == .forbidden)
            // The password did not change.
            let hash = try #require(try await test.server.store.user(email: "ada@example.com")?.passwordHash)
            #expect(await test.server.sessions.hasher.verify("correct-horse", hash: hash))
        }
    }
}
