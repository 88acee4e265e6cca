import Foundation
import Testing

@testable import SessionCore

struct UnverifiedJWTTests {
    static func token(header: String = #"{"alg":"ES256","kid":"k1","typ":"JWT"}"#, payload: String) -> String {
        Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8)) + ".c2ln"
    }

    @Test func decodesSupabaseClaims() throws {
        let jwt = try UnverifiedJWT(
            Self.token(
                payload: #"{"sub":"u1","aud":"authenticated","role":"authenticated","exp":1767229200,"iat":1767225600,"iss":"http://x/auth/v1","session_id":"s1","email":"a@b.c"}"#
            ))
        #expect(jwt.header.kid == "k1")
        #expect(jwt.claims.aud == ["authenticated"])
        #expect(jwt.claims.exp == Date(timeIntervalSince1970: 1_767_229_200))
        #expect(jwt.claims.sessionId == "s1")
    }

    @Test func acceptsAudienceArray() throws {
        let jwt = try UnverifiedJWT(Self.token(payload: #"{"aud":["a","b"],"exp":1}"#))
        #expect(jwt.claims.aud == ["a", "b"])
    }

    @Test(arguments: ["", "abc", "a.b", "a.b.c.d", "!!.e30.x", "e30.!!.x"])
    func rejectsMalformedTokens(_ token: String) {
        #expect(throws: JWTDecodingError.self) { try UnverifiedJWT(token) }
    }

    @Test func rejectsNonNumericExpiry() {
        #expect(throws: JWTDecodingError.badJSON(part: "payload", detail: "")) {
            try UnverifiedJWT(Self.token(payload: #"{"exp":"tomorrow"}"#))
        }
    }

    @Test func rejectsOversizedTokens() {
        let huge = Self.token(payload: "{\"x\":\"" + String(repeating: "a", count: 9000) + "\"}")
        #expect(throws: JWTDecodingError.tooLarge) { try UnverifiedJWT(huge) }
    }
}
