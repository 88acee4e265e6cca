import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import SessionServer

/// `--passkeys` and its WebAuthn settings, and the apple-app-site-association (issue 39, items 2 and 5).
struct PasskeyConfigurationTests {
    static let complete = [
        "AUTH_SERVER_PASSKEYS": "on", "AUTH_SERVER_WEBAUTHN_RP_ID": "example.com",
        "AUTH_SERVER_WEBAUTHN_RP_DISPLAY_NAME": "Example",
        "AUTH_SERVER_WEBAUTHN_RP_ORIGINS": "https://example.com, https://app.example.com",
    ]

    @Test func readsTheWebAuthnSettingsFromTheEnvironment() throws {
        let configuration = try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: Self.complete)
        let passkeys = try #require(configuration.passkeys)
        #expect(passkeys.rpID == "example.com")
        #expect(passkeys.origins == ["https://example.com", "https://app.example.com"])
        #expect(passkeys.maximumPerUser == 10)
        #expect(passkeys.authenticationOptionsPerMinutePerIP == 30)
        #expect(try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: [:]).passkeys == nil)
    }

    @Test(arguments: ["AUTH_SERVER_WEBAUTHN_RP_ID", "AUTH_SERVER_WEBAUTHN_RP_DISPLAY_NAME", "AUTH_SERVER_WEBAUTHN_RP_ORIGINS"])
    func refusesPasskeysWithoutEachSetting(missing: String) {
        var environment = Self.complete
        environment[missing] = nil
        let error = #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: environment)
        }
        #expect(error?.description.contains("--webauthn-rp-id") == true)
    }

    @Test(arguments: [
        ("https://example.com/", "AUTH_SERVER_WEBAUTHN_RP_ID"), ("example.com:443", "AUTH_SERVER_WEBAUTHN_RP_ID"),
        ("http://example.com", "AUTH_SERVER_WEBAUTHN_RP_ORIGINS"), ("https://evil.test", "AUTH_SERVER_WEBAUTHN_RP_ORIGINS"),
        ("https://notexample.com", "AUTH_SERVER_WEBAUTHN_RP_ORIGINS"), ("https://example.com/path", "AUTH_SERVER_WEBAUTHN_RP_ORIGINS"),
    ])
    func refusesAnRPIDOrOriginThatCannotWork(value: String, name: String) {
        var environment = Self.complete
        environment[name] = value
        #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: environment)
        }
    }

    @Test func servesTheAppleAppSiteAssociation() async throws {
        var overrides = ConfigurationOverrides()
        overrides.appleAppIDs = "ABCDE12345.com.example.app"
        overrides.appleAppLinkPaths = "/auth/v1/callback*"
        let resolved = try AuthServerConfiguration.resolve(overrides, environment: [:])
        let test = try await TestServer.make { $0.appleAppSiteAssociation = resolved.appleAppSiteAssociation }
        try await test.run { client in
            let response = try await client.send(.get, "/.well-known/apple-app-site-association")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            let object = try response.jsonObject()
            #expect((object["webcredentials"] as? [String: Any])?["apps"] as? [String] == ["ABCDE12345.com.example.app"])
            let details = try #require((object["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
            #expect(details.first?["appIDs"] as? [String] == ["ABCDE12345.com.example.app"])
        }
        overrides.appleAppIDs = "com.example.app"
        #expect(throws: ConfigurationError.self) { try AuthServerConfiguration.resolve(overrides, environment: [:]) }
    }
}
