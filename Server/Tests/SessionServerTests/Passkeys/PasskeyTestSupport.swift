import Foundation
import HTTPTypes
import HummingbirdTesting
import SessionCore
import Testing

@testable import SessionServer

/// A server with passkeys on for `example.com`, and the calls a client makes.
enum PasskeyTestSupport {
    static func server(
        _ database: TestDatabase = .sqlite, configure: (inout PasskeyConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        try await TestServer.make(database) { configuration in
            var passkeys = PasskeyConfiguration(rpID: "example.com", rpDisplayName: "Example", origins: ["https://example.com"])
            configure(&passkeys)
            configuration.passkeys = passkeys
        }
    }

    /// `challenge_id` and the challenge of an options answer: registration's
    /// options sit under `publicKey` (GoTrue's `CredentialCreation`), authentication's do not.
    static func challenge(_ response: TestResponse) throws -> (id: String, challenge: String) {
        let object = try response.jsonObject()
        let wrapper = try #require(object["options"] as? [String: Any])
        let options = (wrapper["publicKey"] as? [String: Any]) ?? wrapper
        return (try #require(object["challenge_id"] as? String), try #require(options["challenge"] as? String))
    }

    static func verifyBody(_ challengeID: String, _ credential: String) -> String {
        #"{"challenge_id":"\#(challengeID)","credential":\#(credential)}"#
    }

    /// Registers `authenticator` on the account of `bearer`.
    static func register(
        _ client: any TestClientProtocol, _ authenticator: SoftwareAuthenticator, bearer: String
    ) async throws -> TestResponse {
        let options = try challenge(try await client.send(.post, "/auth/v1/passkeys/registration/options", bearer: bearer))
        return try await client.send(
            .post, "/auth/v1/passkeys/registration/verify",
            json: verifyBody(options.id, authenticator.registrationJSON(challenge: options.challenge)), bearer: bearer)
    }

    /// Signs in with `authenticator` as the user `userID`.
    static func signIn(
        _ client: any TestClientProtocol, _ authenticator: SoftwareAuthenticator, userID: String
    ) async throws -> TestResponse {
        let options = try challenge(try await client.send(.post, "/auth/v1/passkeys/authentication/options"))
        return try await client.send(
            .post, "/auth/v1/passkeys/authentication/verify",
            json: verifyBody(options.id, authenticator.assertionJSON(challenge: options.challenge, userHandle: userID)))
    }
}
