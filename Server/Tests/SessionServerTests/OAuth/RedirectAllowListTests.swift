import Foundation
import SessionServer
import Testing

/// The allow-list is strict: scheme, host and port must match; paths match exactly or by a trailing `*`.
struct RedirectAllowListTests {
    static let list = RedirectAllowList(uncheckedForTests: [
        "https://app.example.com/auth/callback", "https://app.example.com/web/*", "myapp://oauth-callback",
        "http://127.0.0.1:*/callback", "http://localhost:8080/cb",
    ])

    @Test(arguments: [
        "https://app.example.com/auth/callback", "https://app.example.com/auth/callback?next=%2Fhome",
        "https://APP.example.com/auth/callback", "https://app.example.com:443/auth/callback",
        "https://app.example.com/web/", "https://app.example.com/web/deep/path", "myapp://oauth-callback",
        "http://127.0.0.1:53123/callback", "http://127.0.0.1:80/callback", "http://localhost:8080/cb",
    ])
    func allows(redirect: String) {
        #expect(Self.list.allows(redirect))
    }

    @Test(arguments: [
        "http://app.example.com/auth/callback", "https://app.example.com:8443/auth/callback",
        "https://app.example.com.evil.example/auth/callback", "https://evil.example/auth/callback",
        "https://sub.app.example.com/auth/callback", "https://app.example.com/auth/callback/extra",
        "https://app.example.com/auth/callbackx", "https://app.example.com/web", "https://app.example.com/web/../admin",
        "https://user@app.example.com/auth/callback", "https://app.example.com/auth/callback#frag",
        "myapp://other", "otherapp://oauth-callback", "http://127.0.0.1:5000/other", "http://localhost:9090/cb",
        "http://192.168.1.1:5000/callback", "", "not a url", "/relative/callback",
    ])
    func refuses(redirect: String) {
        #expect(!Self.list.allows(redirect))
    }

    @Test(arguments: ["https://*.example.com/cb", "https://app.example.com:*/cb", "no-scheme", "https://app.example.com/cb?x=1"])
    func refusesUnsafePatterns(pattern: String) {
        #expect(throws: ConfigurationError.self) { try RedirectAllowList([pattern]) }
    }

    @Test func anEmptyListAllowsNothing() {
        #expect(!RedirectAllowList.empty.allows("https://app.example.com/"))
    }
}
