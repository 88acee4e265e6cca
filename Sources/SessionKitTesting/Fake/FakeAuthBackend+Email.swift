import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// Email codes and password reset in the fake: the test reads the "mailbox"
/// with ``emailCode(sentTo:)``.
///
/// ```swift
/// try await client.sendEmailCode(to: "ada@example.com")
/// let code = try #require(await fake.emailCode(sentTo: "ada@example.com"))
/// try await client.verifyEmailCode(email: "ada@example.com", code: code)
/// ```
///
/// Like auth-server: one outstanding code per address, used once, five wrong
/// tries end it, and the answer is `{}` whether or not the address has an account.
extension FakeAuthBackend {
    struct EmailCode {
        var code: String
        var recovery: Bool
        var createUser: Bool
        var wrongTries = 0
    }

    /// The newest code mailed to `email`, if any is outstanding.
    public func emailCode(sentTo email: String) -> String? { emailCodes[email.lowercased()]?.code }

    func handleSendCode(_ request: URLRequest, recovery: Bool) throws -> (Data, HTTPURLResponse) {
        struct Body: Decodable {
            var email: String?
            var createUser: Bool?
            enum CodingKeys: String, CodingKey {
                case email
                case createUser = "create_user"
            }
        }
        guard let email = decodeBody(Body.self, request)?.email?.lowercased(), email.contains("@") else {
            return try goTrueError(request, status: 400, code: .validationFailed, message: "email is required.")
        }
        let createUser = !recovery && (decodeBody(Body.self, request)?.createUser ?? true)
        if users[email] != nil || createUser {
            emailCodes[email] = EmailCode(
                code: String(format: "%06d", Int.random(in: 0..<1_000_000)), recovery: recovery, createUser: createUser)
        }
        return try respond(request, status: 200, body: Data("{}".utf8))
    }

    func handleVerify(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        if let body = decodeBody(VerifyRequest.self, request), body.type == "email_change" {
            return try handleEmailChangeVerify(request, body)
        }
        guard let body = decodeBody(VerifyRequest.self, request), let email = body.email?.lowercased(), let token = body.token
        else {
            return try goTrueError(request, status: 400, code: .validationFailed, message: "email and token are required.")
        }
        let invalid = { () throws -> (Data, HTTPURLResponse) in
            try self.goTrueError(request, status: 403, code: .otpExpired, message: "Token has expired or is invalid")
        }
        guard var entry = emailCodes[email], entry.recovery == (body.type == "recovery") else { return try invalid() }
        guard entry.code == token else {
            entry.wrongTries += 1
            emailCodes[email] = entry.wrongTries >= 5 ? nil : entry
            return try invalid()
        }
        emailCodes[email] = nil
        if users[email] == nil {
            guard entry.createUser else { return try invalid() }
            createUser(email: email, password: Self.randomToken())
        }
        guard let user = users[email] else { return try invalid() }
        return try json(request, startFamily(for: user.record))
    }
}
