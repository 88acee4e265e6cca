import Foundation
import SessionCore
import Testing

@testable import SessionKit

/// Reading the seed apps' `supabase_session` blob in the forms it was written.
struct LegacySessionTests {
    static let expiry = Date(timeIntervalSince1970: 1_767_229_200)  // 2026-01-01T01:00:00Z

    static func blob(expiresAt: String, tokens: String = #""accessToken":"acc","refreshToken":"ref""#) -> Data {
        Data(#"{\#(tokens),"expiresAt":\#(expiresAt),"user":{"id":"u-1","email":"ada@example.com"}}"#.utf8)
    }

    @Test(arguments: ["1767229200", "1767229200.0", #""2026-01-01T01:00:00Z""#, #""2026-01-01T01:00:00.000Z""#, #""1767229200""#])
    func readsUnixSecondsAndISO8601(expiresAt: String) throws {
        let legacy = try LegacySession.parse(Self.blob(expiresAt: expiresAt))
        #expect(legacy.accessToken == "acc")
        #expect(legacy.refreshToken == "ref")
        #expect(legacy.expiresAt == Self.expiry)
        #expect(legacy.user?.email == "ada@example.com")
    }

    @Test func readsSnakeCase() throws {
        let data = Data(#"{"access_token":"acc","refresh_token":"ref","expires_at":1767229200}"#.utf8)
        let legacy = try LegacySession.parse(data)
        #expect(legacy.refreshToken == "ref")
        #expect(legacy.expiresAt == Self.expiry)
        #expect(legacy.user == nil)
    }

    /// An expiry that cannot be read is unknown, not an error: the import refreshes first.
    @Test(arguments: ["null", #""next tuesday""#, "true", "{}"])
    func anUnreadableExpiryIsUnknown(expiresAt: String) throws {
        #expect(try LegacySession.parse(Self.blob(expiresAt: expiresAt)).expiresAt == nil)
    }

    @Test(arguments: [
        (#"{"refreshToken":"ref"}"#, "field: accessToken"), (#"{"accessToken":"acc"}"#, "field: refreshToken"),
        ("[1,2]", "not a JSON object"), ("not json", "not a JSON object"),
    ])
    func aBlobWithoutTokensIsNamed(json: String, detail: String) {
        let error = #expect(throws: SessionError.decoding) { try LegacySession.parse(Data(json.utf8)) }
        #expect(error?.underlying == detail)
    }

    @Test func itsDescriptionHidesTheTokens() {
        let legacy = LegacySession(accessToken: "access-secret-123", refreshToken: "refresh-secret-456")
        #expect(!"\(legacy)".contains("secret"))
    }
}
