import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 37, item 9: a sign-up of a new address made two database writes
/// (the user, its confirmation code), one of a confirmed address none that
/// wrote, so timing told whether an address has an account. Both paths now
/// make the same statements that write.
struct SignUpTimingTests {
    @Test func aNewAndAConfirmedAddressCostTheSameWrites() async throws {
        let logs = CapturedLogs()
        let transport = RecordingMailTransport()
        let test = try await TestServer.make(logger: logs.logger(level: .debug)) {
            $0.mail = MailConfiguration(
                transport: transport, sender: try! MailAddress("auth@example.com", name: "Example"), retryDelays: [])
            $0.redirectAllowList = try! RedirectAllowList([EmailTestServer.redirect])
            $0.autoconfirm = false
        }
        try await test.runLive { client in
            _ = try await test.server.store.createUser(
                email: "taken@example.com", passwordHash: "", metadata: [:], now: test.clock.now, confirmed: true)
            func writes(signingUp email: String) async throws -> [String] {
                let before = logs.all.count
                let response = try await SignUpConfirmationTests.signUp(client, email, "some-password-1")
                #expect(response.status == .ok)
                return logs.all.dropFirst(before).filter { line in
                    line.contains("Executing query") && ["INSERT", "UPDATE", "DELETE"].contains { line.contains($0) }
                }
            }
            let new = try await writes(signingUp: "new@example.com")
            let confirmed = try await writes(signingUp: "taken@example.com")
            #expect(new.count == confirmed.count, "new: \(new)\nconfirmed: \(confirmed)")
        }
    }
}
