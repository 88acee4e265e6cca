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

/// Issue 29, item 9: password changes and `DELETE /v1/auth/me` were not in
/// the audit log, and the admin API wrote its create and delete entries in
/// a transaction of their own, so a change could stand without its entry.
struct AuditGapsTests {
    static func actions(_ test: TestServer) async throws -> [(action: String, actor: String, target: String?)] {
        try await test.server.store.auditLog(page: 1, perPage: 100).entries.map { ($0.action, $0.actor, $0.target) }
    }

    @Test(arguments: TestDatabase.all)
    func passwordChangesAndSelfDeletionAreLogged(database: TestDatabase) async throws {
        let test = try await TestServer.make(database)
        try await test.run { client in
            let session = try await client.signUp("ada@example.com")
            let id = try #require(session.user?.id)
            let changed = try await client.send(.put, "/auth/v1/user", json: #"{"password":"new-password-2"}"#, bearer: session.accessToken)
            #expect(changed.status == .ok)
            #expect(try await Self.actions(test).contains { $0.action == "password_changed" && $0.actor == id && $0.target == id })
            let fresh = try await client.signIn("ada@example.com", password: "new-password-2").decode(TokenResponse.self)
            #expect(try await client.send(.delete, "/v1/auth/me", bearer: fresh.accessToken).status == .ok)
            #expect(try await Self.actions(test).contains { $0.action == "user_deleted" && $0.actor == id && $0.target == id })
        }
    }

    /// The entry commits with the change or neither does: with the audit
    /// table gone, an admin deletion fails and the user is still there.
    @Test func anAdminChangeAndItsEntryShareOneTransaction() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let key = try await test.server.serviceRoleKey(lifetime: 3600)
            let session = try await client.signUp("ada@example.com")
            let id = try #require(session.user?.id)
            try await test.server.store.withTransaction { db in try await db.raw("DROP TABLE audit_log").run() }
            let deleted = try await client.send(.delete, "/auth/v1/admin/users/\(id)", bearer: key)
            #expect(deleted.status.code >= 500)
            #expect(try await test.server.store.user(id: id) != nil)
            let created = try await client.send(
                .post, "/auth/v1/admin/users", json: #"{"email":"bob@example.com","password":"correct-horse"}"#, bearer: key)
            #expect(created.status.code >= 500)
            #expect(try await test.server.store.user(email: "bob@example.com") == nil)
        }
    }
}
