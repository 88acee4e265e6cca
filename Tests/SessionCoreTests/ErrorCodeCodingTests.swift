import Foundation
import Testing

@testable import SessionCore

/// The codes are open sets coded as bare JSON strings: a code a newer server
/// invents must decode, and encode back unchanged.
struct ErrorCodeCodingTests {
    @Test func aGatewayCodeIsABareStringAndUnknownOnesDecode() throws {
        let known = try JSONEncoder().encode(GatewayErrorCode.sessionExpired)
        #expect(String(decoding: known, as: UTF8.self) == #""SESSION_EXPIRED""#)
        let unknown = try JSONDecoder().decode(GatewayErrorCode.self, from: Data(#""QUOTA_EXCEEDED""#.utf8))
        #expect(unknown.rawValue == "QUOTA_EXCEEDED")
        #expect(try JSONDecoder().decode(GatewayErrorCode.self, from: known) == .sessionExpired)
    }

    @Test func aGoTrueCodeIsABareStringAndUnknownOnesDecode() throws {
        let known = try JSONEncoder().encode(GoTrueErrorCode.refreshTokenAlreadyUsed)
        #expect(String(decoding: known, as: UTF8.self) == #""refresh_token_already_used""#)
        let unknown = try JSONDecoder().decode(GoTrueErrorCode.self, from: Data(#""some_future_code""#.utf8))
        #expect(unknown == GoTrueErrorCode("some_future_code"))
    }

    @Test func aCodeThatIsNotAStringIsADecodingError() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(GoTrueErrorCode.self, from: Data("400".utf8)) }
    }
}
