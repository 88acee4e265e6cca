import Foundation
import SessionCore
import SessionKitTesting
import Testing

@testable import SessionKit

/// Which expiry an import believes: the JWT's own, else the app's if plausible, else none.
struct ImportedTokensTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    @Test func theJWTsOwnExpiryWinsOverTheAppsCopy() throws {
        let exp = Self.now.addingTimeInterval(-60)
        let token = TestJWT.make(issuedAt: exp.addingTimeInterval(-3600), expiresAt: exp)
        let tokens = try ImportedTokens(
            accessToken: token, refreshToken: "refresh-1", expiresAt: Self.now.addingTimeInterval(3600), serverNow: Self.now)
        #expect(tokens.expiresAt == exp)
        #expect(tokens.expiryDisagrees)
        #expect(tokens.lifetime == 3600)
        #expect(tokens.claimedUser?.id == "user-1")
    }

    @Test func anOpaqueTokenKeepsTheAppsExpiry() throws {
        let kept = Self.now.addingTimeInterval(1200)
        let tokens = try ImportedTokens(accessToken: "opaque", refreshToken: "refresh-1", expiresAt: kept, serverNow: Self.now)
        #expect(tokens.expiresAt == kept)
        #expect(!tokens.expiryDisagrees)
        #expect(tokens.claimedUser == nil)
    }

    /// Milliseconds read as seconds land thousands of years away: not believed, so refreshed first.
    @Test func anImplausibleExpiryIsUnknown() throws {
        let milliseconds = Date(timeIntervalSince1970: Self.now.timeIntervalSince1970 * 1000)
        let tokens = try ImportedTokens(accessToken: "opaque", refreshToken: "refresh-1", expiresAt: milliseconds, serverNow: Self.now)
        #expect(tokens.expiresAt == nil)
    }

    @Test(arguments: ["", " ", "a b", "tab\there", "nul\u{0}", String(repeating: "x", count: ImportedTokens.maximumRefreshTokenLength + 1)])
    func aBadRefreshTokenIsNamed(refresh: String) {
        let error = #expect(throws: SessionError.invalidRequest) {
            try ImportedTokens(accessToken: "opaque", refreshToken: refresh, expiresAt: nil, serverNow: Self.now)
        }
        #expect(error?.message.contains("refresh token") == true)
    }
}
