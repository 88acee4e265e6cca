import Foundation
import SessionCore
import SessionServer
import Testing

/// Flags, environment variables and defaults.
struct ConfigurationTests {
    @Test func usesDesignDefaultsWhenNothingIsGiven() throws {
        let configuration = try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: [:])
        #expect(configuration.database == .sqlite(path: "./data/auth.sqlite"))
        #expect(configuration.accessTokenTTL == 3600)
        #expect(configuration.refreshGrace == 10)
        #expect(configuration.leeway == 60)
        #expect(configuration.refreshTokenTTL == 30 * 86_400)
        #expect(configuration.sessionAbsoluteTTL == 90 * 86_400)
        #expect(configuration.bcryptCost == 10)
        #expect(configuration.keyRefreshInterval == 30)
        #expect(configuration.recoversUnsavedSuccessors)
    }

    @Test func readsEnvironmentVariablesAndLetsFlagsWin() throws {
        let environment = [
            "AUTH_SERVER_PORT": "8080", "AUTH_SERVER_DATABASE": "postgres://u:secret@db/auth",
            "AUTH_SERVER_ACCESS_TOKEN_TTL": "900", "AUTH_SERVER_REFRESH_GRACE": "5", "AUTH_SERVER_LEEWAY": "30",
            "AUTH_SERVER_HOST": "0.0.0.0", "AUTH_SERVER_KEY_REFRESH_INTERVAL": "5",
            "AUTH_SERVER_SUCCESSOR_RECOVERY": "off",
        ]
        let fromEnvironment = try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: environment)
        #expect(fromEnvironment.port == 8080)
        #expect(fromEnvironment.host == "0.0.0.0")
        #expect(fromEnvironment.database == .postgres(url: "postgres://u:secret@db/auth"))
        #expect(fromEnvironment.accessTokenTTL == 900)
        #expect(fromEnvironment.refreshGrace == 5)
        #expect(fromEnvironment.leeway == 30)
        #expect(fromEnvironment.keyRefreshInterval == 5)
        #expect(!fromEnvironment.recoversUnsavedSuccessors)
        let flags = try AuthServerConfiguration.resolve(
            ConfigurationOverrides(port: 9000, database: ":memory:", successorRecovery: true, leeway: 0), environment: environment)
        #expect(flags.port == 9000)
        #expect(flags.recoversUnsavedSuccessors)
        #expect(flags.database == .sqliteInMemory)
        #expect(flags.leeway == 0)
    }

    @Test(arguments: [["AUTH_SERVER_PORT": "abc"], ["AUTH_SERVER_PORT": "70000"], ["AUTH_SERVER_LEEWAY": "-1"],
        ["AUTH_SERVER_ACCESS_TOKEN_TTL": "0"], ["AUTH_SERVER_KEY_REFRESH_INTERVAL": "0"],
        ["AUTH_SERVER_KEY_REFRESH_INTERVAL": "3601"], ["AUTH_SERVER_SUCCESSOR_RECOVERY": "maybe"]])
    func rejectsUnusableValues(environment: [String: String]) {
        #expect(throws: ConfigurationError.self) {
            try AuthServerConfiguration.resolve(ConfigurationOverrides(), environment: environment)
        }
    }

    @Test func hidesThePasswordWhenDescribingADatabase() {
        let location = DatabaseLocation(parsing: "postgres://app:hunter2@db.example:5432/auth")
        #expect(!location.description.contains("hunter2"))
        #expect(location.description.contains("db.example"))
    }
}
