import Foundation
import Testing

@testable import SessionCore

struct WireCodingTests {
    @Test func decodesGoTrueUserWithBothDateForms() throws {
        let json = #"""
            {"id":"8d2c","aud":"authenticated","role":"authenticated","email":"a@b.c",
             "user_metadata":{"first_name":"Ada","n":1},"app_metadata":{"provider":"email"},
             "created_at":"2026-01-01T00:00:00.123456Z","updated_at":"2026-01-01T00:00:00Z"}
            """#
        let user = try WireCoding.decoder().decode(SessionUser.self, from: Data(json.utf8))
        #expect(user.userMetadata["first_name"] == "Ada")
        #expect(user.userMetadata["n"] == 1)
        #expect(user.updatedAt == Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test func readsAPendingEmailChangeAndWritesItBack() throws {
        let json = #"""
            {"id":"8d2c","email":"old@b.c","new_email":"new@b.c","email_change_sent_at":"2026-01-01T00:00:00Z"}
            """#
        let user = try WireCoding.decoder().decode(SessionUser.self, from: Data(json.utf8))
        #expect(user.email == "old@b.c")
        #expect(user.newEmail == "new@b.c")
        #expect(user.emailChangeSentAt == Date(timeIntervalSince1970: 1_767_225_600))
        let again = try WireCoding.decoder().decode(SessionUser.self, from: WireCoding.encoder().encode(user))
        #expect(again == user)
    }

    @Test func roundTripsTokenResponse() throws {
        let user = SessionUser(id: "u", email: "a@b.c", createdAt: .init(timeIntervalSince1970: 0), updatedAt: .init(timeIntervalSince1970: 0))
        let response = TokenResponse(accessToken: "a", expiresIn: 3600, expiresAt: 3600, refreshToken: "r", user: user)
        let data = try WireCoding.encoder().encode(response)
        #expect(String(decoding: data, as: UTF8.self).contains(#""access_token":"a""#))
        #expect(try WireCoding.decoder().decode(TokenResponse.self, from: data) == response)
    }

    @Test func rejectsGarbageDates() {
        #expect(throws: DecodingError.self) {
            try WireCoding.decoder().decode([Date].self, from: Data(#"["yesterday"]"#.utf8))
        }
    }
}
