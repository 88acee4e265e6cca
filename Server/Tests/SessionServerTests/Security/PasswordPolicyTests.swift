import Foundation
import HTTPTypes
import SessionKitTesting
import HummingbirdTesting
import SessionCore
import SessionServer
import Testing

/// Issue 15 §9: control characters are refused with a clear 422; the minimum is 8, configurable.
struct PasswordPolicyTests {
    /// JSON escapes of characters nobody types: NUL above all, then the other C0, DEL and C1 controls.
    @Test(arguments: [#"\u0000abcdefghij"#, #"abcdefgh\u0000"#, #"abcd\tefghij"#, #"abcd\nefghij"#, #"abcd\u001befgh"#,
        #"abcd\u007fefgh"#, #"abcd\u0085efgh"#])
    func signUpRefusesControlCharacters(escaped: String) async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let response = try await client.send(
                .post, "/auth/v1/signup", json: #"{"email":"ada@example.com","password":"\#(escaped)"}"#)
            #expect(response.status == .unprocessableContent)
            #expect(response.goTrueErrorCode == "weak_password")
            #expect(response.text.contains("control characters"))
            let reasons = try response.jsonObject()["weak_password"] as? [String: Any]
            #expect(reasons?["reasons"] as? [String] == ["characters"])
            #expect(try await test.server.store.user(email: "ada@example.com") == nil)
        }
    }

    @Test func aPasswordChangeRefusesControlCharactersToo() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let session = try await client.signUp()
            let response = try await client.send(
                .put, "/auth/v1/user", json: #"{"password":"\u0000abcdefghij","current_password":"correct-horse"}"#,
                bearer: session.accessToken)
            #expect(response.status == .unprocessableContent)
            #expect(response.goTrueErrorCode == "weak_password")
            #expect(try await client.signIn("ada@example.com", password: "correct-horse").status == .ok)
        }
    }

    @Test func theDefaultMinimumIsEightCharacters() async throws {
        let test = try await TestServer.make()
        try await test.run { client in
            let seven = try await client.send(.post, "/auth/v1/signup", json: #"{"email":"a@example.com","password":"1234567"}"#)
            #expect(seven.status == .unprocessableContent)
            #expect(seven.goTrueErrorCode == "weak_password")
            #expect(seven.text.contains("at least 8"))
            let eight = try await client.send(.post, "/auth/v1/signup", json: #"{"email":"a@example.com","password":"12345678"}"#)
            #expect(eight.status == .ok)
        }
    }

    @Test func theMinimumIsConfigurableButNeverBelowEight() async throws {
        let raised = try AuthServerConfiguration.resolve(
            ConfigurationOverrides(), environment: ["AUTH_SERVER_MINIMUM_PASSWORD_LENGTH": "12"])
        #expect(raised.minimumPasswordLength == 12)
        let flag = try AuthServerConfiguration.resolve(ConfigurationOverrides(minimumPasswordLength: 10), environment: [:])
        #expect(flag.minimumPasswordLength == 10)
        #expect(try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: [:]).minimumPasswordLength == 8)
        for bad in ["7", "0", "abc", "100"] {
            #expect(throws: ConfigurationError.self) {
                try AuthServerConfiguration.resolve(
                    ConfigurationOverrides(), environment: ["AUTH_SERVER_MINIMUM_PASSWORD_LENGTH": bad])
            }
        }
        let test = try await TestServer.make { $0.minimumPasswordLength = 12 }
        try await test.run { client in
            let eleven = try await client.send(
                .post, "/auth/v1/signup", json: #"{"email":"a@example.com","password":"12345678901"}"#)
            #expect(eleven.goTrueErrorCode == "weak_password")
        }
    }
}
