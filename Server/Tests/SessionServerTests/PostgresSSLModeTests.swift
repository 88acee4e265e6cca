import Foundation
import SessionKitTesting
import Testing

@testable import SessionServer

/// `sslmode` as libpq reads it; a value it does not know stops the start.
struct PostgresSSLModeTests {
    @Test func libpqsValuesAreRead() throws {
        #expect(try PostgresSSLMode(parameter: nil) == .prefer)
        #expect(try PostgresSSLMode(parameter: "disable") == .disable)
        #expect(try PostgresSSLMode(parameter: "prefer") == .prefer)
        #expect(try PostgresSSLMode(parameter: "require") == .require)
        #expect(try PostgresSSLMode(parameter: "verify-ca") == .verifyCA)
        #expect(try PostgresSSLMode(parameter: "verify-full") == .verifyFull)
    }

    /// Before: any unknown value (a typo included) meant "no TLS", in silence.
    @Test(arguments: ["verify-fulll", "allow", "REQUIRE", "", "true"])
    func anyOtherValueIsAStartupErrorNamingTheParameter(value: String) async throws {
        let error = try #require(throws: ConfigurationError.self) { try PostgresSSLMode(parameter: value) }
        #expect(error.description.contains("sslmode=\(value)"))
        // The whole start: refused at once, before any connection is tried.
        let url = "postgres://postgres@127.0.0.1:1/db?sslmode=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)"
        await #expect(throws: ConfigurationError.self) {
            _ = try await AuthServer(configuration: .testing(clock: ManualClock(), database: .postgres(url: url)))
        }
    }

    @Test func anUnreadableRootCertificateIsAStartupError() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try PostgresSSLMode.verifyFull.tls(rootCertificate: "/nonexistent/root.crt")
        }
        #expect(error.description.contains("sslrootcert"))
    }
}
