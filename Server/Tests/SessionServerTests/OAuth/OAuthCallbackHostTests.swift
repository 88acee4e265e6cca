import Foundation
import Testing

@testable import SessionServer

/// The callback URL the provider sends codes to, without `--external-url`.
/// (HummingbirdTesting's clients always send `Host: localhost`, so the rule
/// is tested on the function every request goes through.)
struct OAuthCallbackHostTests {
    /// Before: any Host was taken, so a request with `Host: evil.example` had
    /// the provider send the person's code to evil.example.
    @Test(arguments: ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "localhost.evil.example:3000", "10.0.0.1"])
    func anAttackersHostNeverBecomesTheCallback(host: String) throws {
        let error = try #require(throws: AuthError.self) { try OAuthRoutes.callbackURL(externalURL: nil, authority: host) }
        #expect(error.message.contains("--external-url"))
    }

    @Test(arguments: ["localhost:9999", "127.0.0.1:9999", "[::1]:9999", "localhost", "LOCALHOST:1"])
    func aLoopbackHostIsTakenForDevelopment(host: String) throws {
        #expect(try OAuthRoutes.callbackURL(externalURL: nil, authority: host) == "http://\(host)/auth/v1/callback")
    }

    @Test func withAnExternalURLTheHostIsIgnored() throws {
        let url = try OAuthRoutes.callbackURL(externalURL: URL(string: "https://auth.example.com")!, authority: "evil.example")
        #expect(url == "https://auth.example.com/auth/v1/callback")
    }
}
