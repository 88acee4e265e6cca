import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// GoTrue's email change in the fake (`internal/api/user.go`, `verify.go`; docs/ACCOUNTS.md):
/// `PUT /user {email}` leaves `email` as it is and sets `new_email`; an anonymous user gets
/// one code (at the new address), a confirmed person two (current and new, GoTrue's secure
/// email change). `POST /verify {type: email_change}` with the bearer answers the first of two
/// with GoTrue's "Confirmation link accepted" message and the last with a token response for
/// the same session, its refresh token swapped (as a second factor's verify swaps it).
extension FakeAuthBackend {
    // MARK: - Test controls

    /// The email-change code mailed to `email` (the current or the new address), if one is outstanding.
    public func emailChangeCode(sentTo email: String) -> String? {
        let address = email.lowercased()
        for change in accounts.emailChanges.values {
            if change.newEmail == address, !change.newConfirmed { return change.newCode }
        }
        for (id, change) in accounts.emailChanges where currentUser(id: id)?.email?.lowercased() == address && !change.currentConfirmed {
            return change.currentCode
        }
        return nil
    }

    // MARK: - Routes

    /// `PUT /user` with an `email`: `nil` when the update has none (or the same address).
    func handleEmailChange(_ request: URLRequest, user: User) throws -> (Data, HTTPURLResponse)? {
        struct Body: Decodable { var email: String? }
        guard let email = decodeBody(Body.self, request)?.email?.lowercased(), !email.isEmpty,
            email != user.record.email?.lowercased()
        else { return nil }
        guard email.contains("@") else {
            return try goTrueError(request, status: 400, code: .validationFailed, message: "Unable to validate email address: invalid format")
        }
        if users[email] != nil {
            return try goTrueError(request, status: 422, code: .emailExists, message: "A user with this email address has already been registered")
        }
        guard let key = userKey(id: user.record.id), var record = users[key]?.record else { return nil }
        let anonymous = record.isAnonymous == true || record.email == nil
        accounts.emailChanges[record.id] = FakeAccounts.EmailChange(
            newEmail: email, newCode: Self.sixDigits(), currentCode: anonymous ? nil : Self.sixDigits())
        record.newEmail = email
        record.emailChangeSentAt = serverNow
        record.updatedAt = serverNow
        users[key]?.record = record
        return try json(request, record)
    }

    /// `POST /verify {type: email_change}` (bearer).
    func handleEmailChangeVerify(_ request: URLRequest, _ body: VerifyRequest) throws -> (Data, HTTPURLResponse) {
        let (user, sessionID): (User, String)
        switch authenticate(request) {
        case .success(let value): (user, sessionID) = value
        case .failure(let failure): return try goTrueAuthError(request, failure)
        }
        let invalid = { () throws -> (Data, HTTPURLResponse) in
            try self.goTrueError(request, status: 403, code: .otpExpired, message: "Token has expired or is invalid")
        }
        guard var change = accounts.emailChanges[user.record.id], let address = body.email?.lowercased(), let token = body.token
        else { return try invalid() }
        if address == change.newEmail, token == change.newCode {
            change.newConfirmed = true
        } else if address == user.record.email?.lowercased(), let code = change.currentCode, token == code {
            change.currentConfirmed = true
        } else {
            return try invalid()
        }
        accounts.emailChanges[user.record.id] = change
        guard change.newConfirmed, change.currentConfirmed || change.currentCode == nil else {
            // GoTrue's answer to the first of two confirmations: no session, the change waits for the other.
            let accepted: [String: String] = [
                "msg": "Confirmation link accepted. Please proceed to confirm link sent to the other email", "code": "200",
            ]
            return try json(request, accepted)
        }
        accounts.emailChanges[user.record.id] = nil
        guard let oldKey = userKey(id: user.record.id), var record = users[oldKey]?.record else { return try invalid() }
        let now = serverNow
        record.email = change.newEmail
        record.emailConfirmedAt = now
        record.newEmail = nil
        record.emailChangeSentAt = nil
        record.isAnonymous = false
        record.updatedAt = now
        let identity = UserIdentity(
            id: record.id, identityId: UUID().uuidString.lowercased(), userId: record.id, provider: "email",
            identityData: ["email": .string(change.newEmail), "sub": .string(record.id)], createdAt: now, updatedAt: now)
        record.identities = (record.identities ?? []).filter { $0.provider != "email" } + [identity]
        // Found by the new address from now on (a password sign-in, a code).
        let password = users[oldKey]?.password ?? Self.randomToken()
        users[oldKey] = nil
        users[change.newEmail] = User(record: record, password: password)
        for (sub, key) in appleUsers where key == oldKey { appleUsers[sub] = change.newEmail }
        return try json(request, swapRefreshToken(sessionID: sessionID, user: record))
    }

    /// `POST /resend {type: email_change, email}`: new codes for the pending change; `{}` whatever the address.
    func handleResend(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        struct Body: Decodable {
            var type: String?
            var email: String?
        }
        guard let body = decodeBody(Body.self, request), let email = body.email?.lowercased(), body.type != nil else {
            return try goTrueError(request, status: 400, code: .validationFailed, message: "Missing one of these types: signup, email_change, sms, phone_change")
        }
        if body.type == "email_change" {
            for (id, var change) in accounts.emailChanges
            where change.newEmail == email || currentUser(id: id)?.email?.lowercased() == email {
                change.newCode = Self.sixDigits()
                if change.currentCode != nil { change.currentCode = Self.sixDigits() }
                accounts.emailChanges[id] = change
            }
        }
        return try respond(request, status: 200, body: Data("{}".utf8), headers: ["Content-Type": "application/json"])
    }

    // MARK: - Issuing

    /// A new access and refresh token for the same session (same id, same family); the refresh token it
    /// replaces leads to the new one within the reuse grace, as GoTrue swaps it after a verify.
    func swapRefreshToken(sessionID: String, user: SessionUser) -> TokenResponse {
        let now = serverNow
        let access = issueAccessToken(user: user, sessionID: sessionID)
        let refresh = Self.randomToken()
        for (token, record) in refreshTokens where record.sessionID == sessionID && record.successor == nil {
            refreshTokens[token]?.successor = refresh
            refreshTokens[token]?.rotatedAt = now
        }
        refreshTokens[refresh] = RefreshRecord(sessionID: sessionID)
        successorAccessTokens[refresh] = access
        return tokenResponse(access: access, refresh: refresh, user: user)
    }

    static func sixDigits() -> String { String(format: "%06d", Int.random(in: 0..<1_000_000)) }
}
