import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import SessionKitTesting
import Testing
@testable import SessionServer

/// Issue 37, item 6 (an attack): ten anonymous wrong guesses locked the owner
/// out of codes, `/account` code sign-in and nonces for an hour (twenty, a
/// day). The anonymous budget is now kept per address and network, and a
/// signed-in person's nonce has a budget of its own.
struct GuessingLockoutTests {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let attacker: HTTPFields = [forwardedFor: "198.51.100.7"]
    static let owner: HTTPFields = [forwardedFor: "203.0.113.9"]

    static func run(
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol, RecordingMailTransport) async throws -> Void
    ) async throws {
        try await EmailTestServer.run(
            configure: {
                $0.emailsPerMinutePerAddress = 1_000
                $0.trustedProxies = try! TrustedProxies(parsing: "127.0.0.1,::1")
            }, body)
    }

    static func wrongGuesses(_ count: Int, _ client: any TestClientProtocol) async throws {
        for _ in 0..<count {
            _ = try await client.send(
                .post, "/auth/v1/verify", json: #"{"type":"email","email":"ada@example.com","token":"000000"}"#, headers: attacker)
        }
    }

    @Test func anAttackerFromOneNetworkDoesNotLockTheOwnerOut() async throws {
        try await Self.run { _, client, mail in
            _ = try await client.signUp("ada@example.com")
            try await Self.wrongGuesses(20, client)
            // The attacker's network is spent.
            let spent = try await client.send(
                .post, "/auth/v1/verify", json: #"{"type":"email","email":"ada@example.com","token":"000001"}"#, headers: Self.attacker)
            #expect(spent.status == .tooManyRequests)
            // The owner, elsewhere, signs in with a code.
            _ = try await client.send(.post, "/auth/v1/otp", json: #"{"email":"ada@example.com"}"#, headers: Self.owner)
            let code = try #require(try await mail.next().code)
            let signedIn = try await client.send(
                .post, "/auth/v1/verify", json: #"{"type":"email","email":"ada@example.com","token":"\#(code)"}"#, headers: Self.owner)
            #expect(signedIn.status == .ok)
        }
    }

    @Test func aSignedInPersonsNonceHasItsOwnBudget() async throws {
        try await Self.run { _, client, mail in
            let session = try await client.signUp("ada@example.com")
            try await Self.wrongGuesses(20, client)
            _ = try await client.send(.post, "/auth/v1/reauthenticate", bearer: session.accessToken, headers: Self.attacker)
            let nonce = try #require(try await mail.next().code)
            let changed = try await client.send(
                .put, "/auth/v1/user", json: #"{"password":"new-password-9","nonce":"\#(nonce)"}"#, bearer: session.accessToken,
                headers: Self.attacker)
            #expect(changed.status == .ok)
        }
    }
}
