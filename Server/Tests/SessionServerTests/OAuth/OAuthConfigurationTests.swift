import Foundation
import SessionServer
import Testing

/// OAuth settings from flags, the environment and a providers file.
struct OAuthConfigurationTests {
    @Test func stravaFromTheEnvironment() throws {
        let configuration = try AuthServerConfiguration.resolve(
            ConfigurationOverrides(),
            environment: [
                "AUTH_SERVER_OAUTH_STRAVA_CLIENT_ID": "123", "AUTH_SERVER_OAUTH_STRAVA_CLIENT_SECRET": "s3cret",
                "AUTH_SERVER_REDIRECT_ALLOW_LIST": "myapp://cb, http://127.0.0.1:*/callback",
                "AUTH_SERVER_EXTERNAL_URL": "https://auth.example.com",
            ])
        let strava = try #require(configuration.oauthProvider(named: "strava"))
        #expect(strava.clientID == "123")
        #expect(strava.tokenURL.absoluteString == "https://www.strava.com/oauth/token")
        #expect(strava.accountIDField == "athlete.id")
        #expect(configuration.redirectAllowList.allows("http://127.0.0.1:4000/callback"))
        #expect(configuration.externalURL?.host == "auth.example.com")
        #expect(!"\(strava)".contains("s3cret"))
    }

    @Test func aMissingSecretIsNamed() {
        let error = #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(
                ConfigurationOverrides(), environment: ["AUTH_SERVER_OAUTH_STRAVA_CLIENT_ID": "123"])
        }
        #expect(error?.description.contains("client_secret") == true)
    }

    @Test func providersFromAFileWithSecretsFromTheEnvironment() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("providers-\(UUID().uuidString).json")
        defer { _ = try? FileManager.default.removeItem(at: file) }
        try Data(
            #"[{"name":"garmin","authorize_url":"https://connect.example.com/authorize","token_url":"https://connect.example.com/token","user_info_url":"https://connect.example.com/me","account_id_field":"user.id","client_id":"gid","scopes":["profile"]}]"#
                .utf8
        ).write(to: file)
        let configuration = try AuthServerConfiguration.resolve(
            ConfigurationOverrides(oauthProvidersFile: file.path),
            environment: ["AUTH_SERVER_OAUTH_GARMIN_CLIENT_SECRET": "gsecret"])
        let garmin = try #require(configuration.oauthProvider(named: "garmin"))
        #expect(garmin.clientSecret == "gsecret")
        #expect(garmin.scopeSeparator == " ")
        #expect(garmin.userInfoURL?.path == "/me")
    }

    @Test func aBrokenProvidersFileIsNamed() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("providers-\(UUID().uuidString).json")
        defer { _ = try? FileManager.default.removeItem(at: file) }
        try Data(#"[{"name":"x"}]"#.utf8).write(to: file)
        let error = #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(ConfigurationOverrides(oauthProvidersFile: file.path), environment: [:])
        }
        #expect(error?.description.contains("authorize_url") == true)
    }
}
