import Foundation
import Logging
import SessionCore
import Testing

@testable import SessionKit

/// No character of a token in any description, and only token-free metadata
/// public in the OS log. GoTrue's refresh tokens are 12 characters: a
/// 6-character prefix is half the secret.
struct TokenHygieneTests {
    static let access = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEifQ.c2lnbmF0dXJlLXNlY3JldA"
    static let refresh = "Qv7mZk2pXw9L"

    /// Every 3-character window of the refresh token, and 8 of the access token's signature.
    static func leaks(in text: String) -> [String] {
        func windows(_ token: String, _ width: Int) -> [String] {
            let chars = Array(token)
            return (0...(chars.count - width)).map { String(chars[$0..<$0 + width]) }
        }
        let signature = String(access.split(separator: ".").last ?? "")
        return (windows(refresh, 3) + windows(signature, 8)).filter { text.contains($0) }
    }

    static func described(_ value: Any) -> [String] {
        [String(describing: value), String(reflecting: value), "\([value])"]
    }

    @Test func everyTypeHoldingATokenDescribesItselfRedacted() throws {
        let user = SessionUser(id: "u-1", email: "ada@example.com", createdAt: nil, updatedAt: nil)
        let response = TokenResponse(accessToken: Self.access, expiresIn: 3600, expiresAt: nil, refreshToken: Self.refresh, user: user)
        let session = Session(accessToken: Self.access, refreshToken: Self.refresh, expiresAt: Date(timeIntervalSince1970: 1_767_229_200))
        let stored = StoredSession(session, pkceVerifier: "verifier-Qv7mZk2pXw9L")
        let tokens = try OAuthCallback.parse(
            #require(URL(string: "myapp://cb#access_token=\(Self.access)&refresh_token=\(Self.refresh)&expires_in=3600&user_id=u-1&state=st")))
        let code = try OAuthCallback.parse(#require(URL(string: "myapp://cb?code=Qv7mZk2pXw9L")))
        let legacy = LegacySession(accessToken: Self.access, refreshToken: Self.refresh)
        let requests: [Any] = [
            RefreshTokenRequest(refreshToken: Self.refresh),
            PasswordCredentials(email: "ada@example.com", password: Self.refresh),
            PKCETokenRequest(authCode: Self.refresh, codeVerifier: Self.refresh),
            IDTokenRequest(provider: "apple", idToken: Self.access, nonce: Self.refresh),
            PasswordUpdate(password: Self.refresh, currentPassword: Self.refresh, nonce: Self.refresh),
            AccountDeletion(currentPassword: Self.refresh, nonce: Self.refresh),
            UserAttributes(email: "ada@example.com", password: Self.refresh, currentPassword: Self.refresh, nonce: Self.refresh),
            BackendOperation.deleteAccount(AccountDeletion(nonce: Self.refresh)),
            BackendOperation.updateUser(UserAttributes(password: Self.refresh, nonce: Self.refresh)),
        ]
        let values: [Any] = [response, session, stored, tokens, code, code.result, tokens.result, legacy] + requests
        for value in values {
            for text in Self.described(value) {
                #expect(Self.leaks(in: text).isEmpty, "\(type(of: value)) leaks: \(text)")
            }
        }
    }

    @Test func aFingerprintHoldsNoCharacterRun() {
        let fingerprint = TokenRedaction.fingerprint(Self.refresh)
        #expect(fingerprint.count == 9)
        #expect(Self.leaks(in: fingerprint).isEmpty)
        #expect(fingerprint == TokenRedaction.fingerprint(Self.refresh))
        #expect(fingerprint != TokenRedaction.fingerprint("Qv7mZk2pXw9M"))
        #expect(TokenRedaction.redacted(Self.refresh) == "<redacted>")
    }

    @Test func theOSLogShowsOnlyTokenFreeMetadataPublicly() {
        let line = OSLogLine(
            label: "SessionKit", message: "Refreshed the session",
            metadata: ["status": "200", "refresh_token": "#1a2b3c4d", "reason": "server said x", "user": "u-1", "seconds": "3"])
        #expect(line.publicText == "Refreshed the session seconds=3 status=200")
        #expect(line.privateText == "reason=server said x refresh_token=#1a2b3c4d user=u-1")

        // An app's own logger routed through the handler: its messages may say anything.
        let app = OSLogLine(label: "com.example.app", message: "token is \(Self.refresh)", metadata: ["status": "200"])
        #expect(app.publicText.isEmpty)
        #expect(app.privateText.contains(Self.refresh))
    }
}
