import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ProcessTesting
import SQLKit
import SessionCore
import SessionKitTesting
import Testing
import SessionServer

/// Issue 29, item 2: without a key-encryption key the signing keys are sealed
/// with a key in the public source, so a copy of the database mints tokens.
/// `serve` refuses that beyond loopback unless told `--insecure-default-key`.
struct DefaultKeyRefusalTests {
    static func configuration(host: String, kek: Bool = false, insecure: Bool = false) throws -> AuthServerConfiguration {
        var configuration = try AuthServerConfiguration.resolve(.init(host: host), environment: [:])
        if kek { configuration.keyEncryptionKey = try KeyEncryptionKey(base64: Data(repeating: 7, count: 32).base64EncodedString()) }
        configuration.insecureDefaultKey = insecure
        return configuration
    }

    @Test(arguments: ["0.0.0.0", "::", "192.168.1.10", "auth.example.com", "127.0.0.1.nip.io"])
    func aReachableHostWithoutAKeyIsRefused(host: String) throws {
        let refusal = try #require(try Self.configuration(host: host).refusalToServe)
        #expect(refusal.description.contains("--key-encryption-key-file"))
        #expect(refusal.description.contains("--insecure-default-key"))
        #expect(try Self.configuration(host: host, kek: true).refusalToServe == nil)
        #expect(try Self.configuration(host: host, insecure: true).refusalToServe == nil)
    }

    @Test(arguments: ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
    func loopbackServesOnTheBuiltInKey(host: String) throws {
        #expect(try Self.configuration(host: host).refusalToServe == nil)
    }

    /// Issue 37, item 5 (an attack on the common layout): a proxy on the same
    /// host, the server on 127.0.0.1 behind it. Before the fix these started
    /// on the built-in key with a warning.
    @Test(arguments: [
        ConfigurationOverrides(host: "127.0.0.1", externalURL: "https://auth.example.com"),
        ConfigurationOverrides(host: "127.0.0.1", trustedProxies: "127.0.0.1"),
        ConfigurationOverrides(host: "::1", trustedProxies: "::1/128"),
    ])
    func aLoopbackHostBehindAProxyIsRefused(flags: ConfigurationOverrides) throws {
        var configuration = try AuthServerConfiguration.resolve(flags, environment: [:])
        let refusal = try #require(configuration.refusalToServe)
        #expect(refusal.description.contains("--insecure-default-key"))
        configuration.insecureDefaultKey = true
        #expect(configuration.refusalToServe == nil)
        configuration.insecureDefaultKey = false
        configuration.keyEncryptionKey = try KeyEncryptionKey(base64: Data(repeating: 7, count: 32).base64EncodedString())
        #expect(configuration.refusalToServe == nil)
    }

    /// A loopback `--external-url` (development) still serves on the built-in key.
    @Test func aLoopbackExternalURLServesOnTheBuiltInKey() throws {
        let configuration = try AuthServerConfiguration.resolve(
            .init(host: "127.0.0.1", externalURL: "http://localhost:8080"), environment: [:])
        #expect(configuration.refusalToServe == nil)
    }

    @Test func theFlagAndTheEnvironmentAreRead() throws {
        #expect(try AuthServerConfiguration.resolve(.init(insecureDefaultKey: true), environment: [:]).insecureDefaultKey)
        #expect(
            try AuthServerConfiguration.resolve(.init(), environment: ["AUTH_SERVER_INSECURE_DEFAULT_KEY": "on"]).insecureDefaultKey)
        #expect(try AuthServerConfiguration.resolve(.init(), environment: [:]).insecureDefaultKey == false)
    }

    /// The binary as an operator runs it: `serve --host 0.0.0.0` and no KEK exits at once, saying what to do.
    @Test(.enabled(if: Binaries.missing([Binaries.authServer]) == nil, "auth-server is not built"))
    func serveRefusesToStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kek-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = try ChildProcess(
            executable: Binaries.authServer,
            arguments: ["serve", "--host", "0.0.0.0", "--port", "0", "--database", ":memory:"],
            workingDirectory: directory, output: .separate(in: directory, for: "serve"))
        let result = try await process.wait()
        #expect(result.status != 0, "\(result)")
        #expect((result.stdout + result.stderr).contains("--insecure-default-key"), "\(result)")
    }
}
