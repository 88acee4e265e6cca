import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionServer

/// A live test server whose mail lands in a ``RecordingMailTransport``.
enum EmailTestServer {
    static let redirect = "myapp://auth-callback"

    static func run(
        _ database: TestDatabase = .sqlite, transport: RecordingMailTransport = RecordingMailTransport(),
        configure: @escaping (inout AuthServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol, RecordingMailTransport) async throws -> Void
    ) async throws {
        let test = try await TestServer.make(database) {
            $0.mail = MailConfiguration(
                transport: transport, sender: try! MailAddress("auth@example.com", name: "Example"), retryDelays: [])
            $0.redirectAllowList = try! RedirectAllowList([redirect])
            // Password sign-ups here are fixtures for the email flows; the
            // confirmation of a sign-up has its own suite (SignUpConfirmationTests).
            $0.autoconfirm = true
            // One test client is one IP; the per-IP mail budget has its own suite (MailBudgetTests).
            $0.mailRequestsPerMinutePerIP = 1_000
            configure(&$0)
        }
        try await test.runLive { client in try await body(test, client, transport) }
    }
}

extension TestClientProtocol {
    func requestCode(_ email: String, createUser: Bool = true, query: String = "") async throws -> TestResponse {
        try await send(.post, "/auth/v1/otp\(query)", json: #"{"email":"\#(email)","create_user":\#(createUser),"data":{"name":"Ada"}}"#)
    }

    func requestReset(_ email: String, query: String = "") async throws -> TestResponse {
        try await send(.post, "/auth/v1/recover\(query)", json: #"{"email":"\#(email)"}"#)
    }

    func verify(type: String, email: String, code: String) async throws -> TestResponse {
        try await send(.post, "/auth/v1/verify", json: #"{"type":"\#(type)","email":"\#(email)","token":"\#(code)"}"#)
    }
}
