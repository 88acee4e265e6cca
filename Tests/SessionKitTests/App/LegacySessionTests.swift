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
        ("[1,2]", "not a JSON object or a property list"), ("not json", "not a JSON object or a property list"),
    ])
    func aBlobWithoutTokensIsNamed(json: String, detail: String) {
        let error = #expect(throws: SessionError.decoding) { try LegacySession.parse(Data(json.utf8)) }
        #expect(error?.underlying == detail)
    }

    /// `JSONEncoder`'s default date strategy writes seconds since 2001; milliseconds since 1970 appear too.
    @Test(arguments: ["788922000", "788922000.0", "1767229200000"])
    func readsSecondsSince2001AndMilliseconds(expiresAt: String) throws {
        #expect(try LegacySession.parse(Self.blob(expiresAt: expiresAt)).expiresAt == Self.expiry)
    }

    @Test(arguments: ["session", "currentSession"])
    func readsASessionNestedUnder(key: String) throws {
        let data = Data(#"{"\#(key)":{"access_token":"acc","refresh_token":"ref","expires_in":3600,"expires_at":1767229200,"user":{"id":"u-1"}}}"#.utf8)
        let legacy = try LegacySession.parse(data)
        #expect(legacy.refreshToken == "ref")
        #expect(legacy.expiresAt == Self.expiry)
        #expect(legacy.user?.id == "u-1")
    }

    /// `expires_in` alone: nobody knows when it was written, so the expiry is unknown (refreshed first).
    @Test func expiresInAloneIsUnknown() throws {
        let data = Data(#"{"access_token":"acc","refresh_token":"ref","expires_in":3600}"#.utf8)
        #expect(try LegacySession.parse(data).expiresAt == nil)
    }

    @Test func readsAPropertyList() throws {
        let plist: [String: Any] = ["accessToken": "acc", "refreshToken": "ref", "expiresAt": Self.expiry]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        let legacy = try LegacySession.parse(data)
        #expect(legacy.refreshToken == "ref")
        #expect(legacy.expiresAt == Self.expiry)
    }

    /// The seed app's user, camelCase with dates since 2001, still names the person.
    @Test func readsTheSeedAppsUser() throws {
        let data = Data(#"{"accessToken":"acc","refreshToken":"ref","user":{"id":"u-1","email":"ada@example.com","createdAt":762000000.5}}"#.utf8)
        let user = try #require(try LegacySession.parse(data).user)
        #expect(user.email == "ada@example.com")
        #expect(user.createdAt == Date(timeIntervalSinceReferenceDate: 762000000.5))
    }

    @Test func itsDescriptionHidesTheTokens() {
        let legacy = LegacySession(accessToken: "access-secret-123", refreshToken: "Zp9QkR2mXw4L")
        #expect(!"\(legacy)".contains("secret"))
        #expect(!"\(legacy)".contains("Zp9"))
        #expect(!String(reflecting: legacy).contains("Zp9"))
    }
}
