import Foundation
import SessionKit
import Testing

/// `OAuthCallback.parse` is pure: a table of URLs in, a result or a typed error out.
struct OAuthCallbackTests {
    static let jwtLike = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2ln"

    @Test(arguments: [
        ("myapp://cb?code=abc123", "abc123"),
        ("myapp://cb#code=abc123", "abc123"),
        ("http://127.0.0.1:5000/callback?code=abc-_.~123&state=ignored", "abc-_.~123"),
        ("https://app.example.com/auth?next=%2Fhome&code=abc%2B1", "abc+1"),
        ("myapp://cb?code=abc123#code=abc123", "abc123"),
    ])
    func readsCode(url: String, code: String) throws {
        let parsed = try OAuthCallback.parse(try #require(URL(string: url)))
        #expect(parsed.result == .code(code))
    }

    @Test func readsTokensFromTheFragment() throws {
        let url = try #require(
            URL(string: "myapp://cb#access_token=\(Self.jwtLike)&refresh_token=r1&expires_in=3600&user_id=u1&token_type=bearer"))
        guard case .tokens(let tokens) = try OAuthCallback.parse(url).result else {
            Issue.record("expected tokens")
            return
        }
        #expect(tokens.accessToken == Self.jwtLike)
        #expect(tokens.refreshToken == "r1")
        #expect(tokens.expiresIn == 3600)
        #expect(tokens.userID == "u1")
        #expect(tokens.expiresAt == nil)
    }

    /// Each bad URL and the error it must give: a typed error that names the field.
    @Test(arguments: [
        ("myapp://cb", OAuthCallbackError.missing("code")),
        ("myapp://cb?state=x", .missing("code")),
        ("myapp://cb?code=", .missing("code")),
        ("myapp://cb?code=a%20b", .malformed("code", "")),
        ("myapp://cb?code=%E9", .malformed("code", "")),
        ("myapp://cb?code=a&code=b", .malformed("code", "")),
        ("myapp://cb?code=a#code=b", .malformed("code", "")),
        ("myapp://cb?code=" + String(repeating: "a", count: 600), .malformed("code", "")),
        ("myapp://cb#refresh_token=r&expires_in=60&user_id=u", .missing("access_token")),
        ("myapp://cb#access_token=a&expires_in=60&user_id=u", .missing("refresh_token")),
        ("myapp://cb#access_token=a&refresh_token=r&user_id=u", .missing("expires_in")),
        ("myapp://cb#access_token=a&refresh_token=r&expires_in=60", .missing("user_id")),
        ("myapp://cb#access_token=&refresh_token=r&expires_in=60&user_id=u", .missing("access_token")),
        ("myapp://cb#access_token=a&refresh_token=r&expires_in=soon&user_id=u", .malformed("expires_in", "")),
        ("myapp://cb#access_token=a&refresh_token=r&expires_in=-5&user_id=u", .malformed("expires_in", "")),
        ("myapp://cb#access_token=a&refresh_token=r&expires_in=99999999999999999999999&user_id=u", .malformed("expires_in", "")),
        ("myapp://cb#access_token=a&refresh_token=r&expires_in=60&user_id=u&expires_at=x", .malformed("expires_at", "")),
        ("myapp://cb#access_token=a&refresh_token=r&expires_in=60&user_id=u&token_type=mac", .malformed("token_type", "")),
        ("myapp://cb#access_token=a%0Ab&refresh_token=r&expires_in=60&user_id=u", .malformed("access_token", "")),
        ("/relative?code=abc", .notACallback),
    ])
    func refusesBadCallbacks(url: String, expected: OAuthCallbackError) throws {
        let parsed = try #require(URL(string: url))
        let error = #expect(throws: OAuthCallbackError.self) { try OAuthCallback.parse(parsed) }
        #expect(error == expected, "\(url) gave \(String(describing: error))")
        #expect(error?.message.isEmpty == false)
    }

    @Test func checksErrorsBeforeAnythingElse() throws {
        let url = try #require(
            URL(string: "myapp://cb?code=abc&error=access_denied&error_code=bad_oauth_callback&error_description=The+user+said+no"))
        let error = #expect(throws: OAuthCallbackError.self) { try OAuthCallback.parse(url) }
        #expect(error?.isDenied == true)
        #expect(error?.errorCode == "bad_oauth_callback")
        #expect(error?.message == "The user said no")
    }

    @Test func readsErrorsFromTheFragment() throws {
        let url = try #require(URL(string: "myapp://cb#error=server_error&error_description=Provider%20down"))
        let error = #expect(throws: OAuthCallbackError.self) { try OAuthCallback.parse(url) }
        #expect(error?.isDenied == false)
        #expect(error?.error == "server_error")
        #expect(error?.message == "Provider down")
    }

    @Test func refusesOversizedURLs() throws {
        let url = try #require(URL(string: "myapp://cb?code=a&pad=" + String(repeating: "x", count: 40_000)))
        #expect(throws: OAuthCallbackError.notACallback) { try OAuthCallback.parse(url) }
    }
}
