import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// GoTrue's anonymous users in the fake (`internal/api/anonymous.go`; docs/ACCOUNTS.md
/// has the wire shapes): `POST /signup` with neither email nor phone creates a user
/// with `is_anonymous: true`, and every access token says `is_anonymous` (amr `anonymous`).
extension FakeAuthBackend {
    // MARK: - Test controls

    /// Switches anonymous sign-ins on or off (off by default, as GoTrue's `EXTERNAL_ANONYMOUS_USERS_ENABLED`).
    public func setAnonymousSignIns(_ enabled: Bool) { accounts.anonymousSignIns = enabled }

    /// The user with this id as the server holds it now, if any.
    public func user(id: String) -> SessionUser? { currentUser(id: id) }

    // MARK: - Routes

    /// Answers a sign-up without email and phone; `nil` for any other sign-up.
    func handleAnonymousSignUp(_ request: URLRequest) throws -> (Data, HTTPURLResponse)? {
        struct Body: Decodable {
            var email: String?
            var phone: String?
            var data: [String: JSONValue]?
        }
        guard let body = decodeBody(Body.self, request), body.email?.isEmpty ?? true, body.phone?.isEmpty ?? true else {
            return nil
        }
        guard accounts.anonymousSignIns else {
            return try goTrueError(
                request, status: 422, code: GoTrueErrorCode("anonymous_provider_disabled"), message: "Anonymous sign-ins are disabled")
        }
        let now = serverNow
        let user = SessionUser(
            id: UUID().uuidString.lowercased(), email: nil, userMetadata: body.data ?? [:], identities: [], isAnonymous: true,
            createdAt: now, updatedAt: now)
        users[Self.anonymousKey(user.id)] = User(record: user, password: Self.randomToken())
        return try json(request, startFamily(for: user))
    }

    // MARK: - Records

    /// Anonymous users have no address to be found by: they are kept under their id.
    static func anonymousKey(_ id: String) -> String { "anonymous:\(id)" }

    /// The key of the user with this id in `users`.
    func userKey(id: String) -> String? { users.first { $0.value.record.id == id }?.key }

    func currentUser(id: String) -> SessionUser? { users.values.first { $0.record.id == id }?.record }

    /// What the server holds now, not what a token was issued for.
    func currentAnonymity(of user: SessionUser) -> Bool { (currentUser(id: user.id) ?? user).isAnonymous == true }
}
