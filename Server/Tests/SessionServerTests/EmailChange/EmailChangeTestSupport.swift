import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionServer

/// A live server with mail and anonymous sign-ins, for the email-change suites.
enum EmailChangeTestServer {
    static func run(
        _ database: TestDatabase = .sqlite, configure: @escaping (inout AuthServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol, RecordingMailTransport) async throws -> Void
    ) async throws {
        try await EmailTestServer.run(database, configure: {
            $0.anonymousSignIns = true
            configure(&$0)
        }, body)
    }
}

extension TestClientProtocol {
    func signInAnonymously() async throws -> TokenResponse {
        try await send(.post, "/auth/v1/signup", json: #"{"data":{"theme":"dark"}}"#).decode(TokenResponse.self)
    }

    /// `PUT /user {email}` with `extra` JSON members (`"current_password":"…"`).
    func changeEmail(_ email: String, bearer: String, extra: String = "") async throws -> TestResponse {
        let more = extra.isEmpty ? "" : "," + extra
        return try await send(.put, "/auth/v1/user", json: #"{"email":"\#(email)"\#(more)}"#, bearer: bearer)
    }

    func verifyEmailChange(_ email: String, code: String, bearer: String? = nil) async throws -> TestResponse {
        try await send(
            .post, "/auth/v1/verify", json: #"{"type":"email_change","email":"\#(email)","token":"\#(code)"}"#, bearer: bearer)
    }

    func verifyEmailChange(tokenHash: String, bearer: String? = nil) async throws -> TestResponse {
        try await send(.post, "/auth/v1/verify", json: #"{"type":"email_change","token_hash":"\#(tokenHash)"}"#, bearer: bearer)
    }

    func resendEmailChange(_ email: String, bearer: String? = nil) async throws -> TestResponse {
        try await send(.post, "/auth/v1/resend", json: #"{"type":"email_change","email":"\#(email)"}"#, bearer: bearer)
    }
}

extension RecordingMailTransport {
    /// The next `count` messages by recipient.
    func next(_ count: Int) async throws -> [String: MailMessage] {
        var byAddress: [String: MailMessage] = [:]
        for _ in 0..<count {
            let message = try await next()
            byAddress[message.to.address] = message
        }
        return byAddress
    }
}

/// The first confirmation's answer, GoTrue's exact shape (`internal/api/verify.go`, `verifyPost`).
let singleConfirmationBody = #"{"code":"200","msg":"Confirmation link accepted. Please proceed to confirm link sent to the other email"}"#
