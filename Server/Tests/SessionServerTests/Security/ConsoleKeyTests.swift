import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SessionCore
import SQLKit
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 29, item 8: a console lives no longer than the service-role key it
/// signed in with, says which key acted and from where, and is deleted once
/// expired; keys carry a name and an expiry the operator chose.
struct ConsoleKeyTests {
    static let address = "203.0.113.9"

    static func post(_ client: any TestClientProtocol, _ path: String, _ body: String, cookie: String? = nil) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [
            .contentType: "application/x-www-form-urlencoded", HTTPField.Name("X-Forwarded-For")!: address,
        ]
        if let cookie { headers[.cookie] = cookie }
        return try await client.executeRequest(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    static func signIn(_ client: any TestClientProtocol, key: String) async throws -> String {
        let signedIn = try await post(client, "/admin/sign-in", "key=\(key)")
        #expect(signedIn.status == .seeOther)
        return try #require(WebConsoleTests.cookie(signedIn))
    }

    static func isSignedIn(_ client: any TestClientProtocol, _ cookie: String) async throws -> Bool {
        let page = try await client.executeRequest(uri: "/admin", method: .get, headers: [.cookie: cookie], body: nil)
        return !page.text.contains(#"id="admin-sign-in""#)
    }

    static func make() async throws -> TestServer {
        try await TestServer.make(.sqlite) { $0.trustedProxies = try! TrustedProxies(parsing: "127.0.0.1,::1") }
    }

    @Test func retiringTheKeysSigningKeyEndsItsConsole() async throws {
        let test = try await Self.make()
        try await test.runLive { client in
            let key = try await test.server.serviceRoleKey(name: "ops", lifetime: 86_400)
            let cookie = try await Self.signIn(client, key: key)
            #expect(try await Self.isSignedIn(client, cookie))
            let old = try #require(try await test.server.store.signingKeyList().first { $0.state == .signing }).kid
            _ = try await test.server.keyRing.rotate()
            // Rotation alone leaves the key verifying: the console stays.
            #expect(try await Self.isSignedIn(client, cookie))
            #expect(try await test.server.keyRing.retire(kid: old))
            #expect(try await !Self.isSignedIn(client, cookie))
        }
    }

    @Test func anExpiredKeyEndsItsConsole() async throws {
        let test = try await Self.make()
        try await test.runLive { client in
            let key = try await test.server.serviceRoleKey(name: "short", lifetime: 600)
            let cookie = try await Self.signIn(client, key: key)
            await test.clock.advance(by: 601)
            // The console's own hour is not over; the key's ten minutes are.
            #expect(try await !Self.isSignedIn(client, cookie))
        }
    }

    @Test func everyConsoleActionIsLoggedWithTheKeysNameIdAndAddress() async throws {
        let test = try await Self.make()
        try await test.runLive { client in
            let person = try await client.signUp("ada@example.com")
            let id = try #require(person.user?.id)
            let key = try await test.server.serviceRoleKey(name: "ops-laptop", lifetime: 86_400)
            let cookie = try await Self.signIn(client, key: key)
            let page = try await client.executeRequest(uri: "/admin/users/\(id)", method: .get, headers: [.cookie: cookie], body: nil)
            let csrf = try #require(WebConsoleTests.csrf(page))
            #expect(try await Self.post(client, "/admin/users/\(id)/ban", "csrf=\(csrf)&duration=1h", cookie: cookie).status == .seeOther)
            #expect(try await Self.post(client, "/admin/keys/rotate", "csrf=\(csrf)", cookie: cookie).status == .seeOther)
            #expect(try await Self.post(client, "/admin/sign-out", "csrf=\(csrf)", cookie: cookie).status == .seeOther)

            let entries = try await test.server.store.auditLog(page: 1, perPage: 50).entries
            let console = entries.filter { $0.actor.hasPrefix("console:ops-laptop (") }
            let actions = Set(console.map(\.action))
            #expect(actions.isSuperset(of: ["console_sign_in", "key_rotated", "console_sign_out"]), "\(entries.map(\.action))")
            #expect(console.contains { $0.target == id }, "the ban, by the console's key: \(entries.map(\.actor))")
            #expect(console.allSatisfy { $0.ip == Self.address })
            // One id for the key, and never the key.
            #expect(Set(console.map(\.actor)).count == 1)
            #expect(entries.allSatisfy { !$0.actor.contains(key) && !key.contains($0.actor) })
        }
    }

    @Test func expiredConsoleSessionsArePruned() async throws {
        let test = try await Self.make()
        try await test.runLive { client in
            let key = try await test.server.serviceRoleKey(name: "ops", lifetime: 86_400)
            _ = try await Self.signIn(client, key: key)
            let count = { () async throws -> Int in
                try await test.server.store.withTransaction { db in
                    try await db.raw("SELECT token_hash FROM web_sessions").all().count
                }
            }
            #expect(try await count() == 1)
            _ = try await test.server.store.pruneExpired(now: test.clock.now)
            #expect(try await count() == 1)
            await test.clock.advance(by: AdminConsolePages.lifetime + 1)
            _ = try await test.server.store.pruneExpired(now: test.clock.now)
            #expect(try await count() == 0)
        }
    }

    @Test func keysCarryTheOperatorsNameAndRefuseOthers() async throws {
        let test = try await Self.make()
        try await test.run { _ in
            let key = try await test.server.serviceRoleKey(name: "billing-backend", lifetime: 3600)
            let verified = try await test.server.verifier.verify(key, now: test.clock.now)
            let identity = ServiceRoleIdentity(token: key, verified: verified)
            #expect(identity.name == "billing-backend")
            #expect(identity.id.count == 16)
            for bad in ["", "a b", "<script>", String(repeating: "x", count: 65), "é"] {
                await #expect(throws: AuthError.self) { _ = try await test.server.serviceRoleKey(name: bad, lifetime: 3600) }
            }
        }
    }
}
