import Foundation
import Testing

@testable import SessionCore

struct ServerErrorBodyTests {
    @Test func readsGatewayEnvelope() throws {
        let body = try #require(
            ServerErrorBody.parse(Data(#"{"success":false,"error":{"code":"SESSION_EXPIRED","message":"m"}}"#.utf8)))
        #expect(body.code == .sessionExpired)
        #expect(body.message == "m")
    }

    @Test func readsGoTrueDefaultShape() throws {
        let body = try #require(
            ServerErrorBody.parse(Data(#"{"code":400,"error_code":"refresh_token_not_found","msg":"gone"}"#.utf8)))
        #expect(body.goTrueErrorCode == .refreshTokenNotFound)
        #expect(body.message == "gone")
    }

    @Test func readsGoTrue20240101Shape() throws {
        let body = try #require(
            ServerErrorBody.parse(Data(#"{"code":"refresh_token_already_used","message":"used"}"#.utf8)))
        #expect(body.goTrueErrorCode == .refreshTokenAlreadyUsed)
    }

    @Test func readsOAuthShape() throws {
        let body = try #require(
            ServerErrorBody.parse(Data(#"{"error":"invalid_grant","error_description":"bad"}"#.utf8)))
        #expect(body.goTrueErrorCode == .invalidGrant)
        // OAuth's generic refusal is not an end by itself (a custom backend declares it).
        #expect(body.goTrueErrorCode?.endsSession == false)
    }

    @Test(arguments: ["", "<html>502</html>", "[]", "42", #"{"unrelated":1}"#])
    func returnsNilForUnknownShapes(_ text: String) {
        #expect(ServerErrorBody.parse(Data(text.utf8)) == nil)
    }
}
