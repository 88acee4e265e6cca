import HTTPTypes
@testable import SessionServer
import Testing

/// `AuthMiddleware.bearerToken` reads the header as bytes; these pin what it
/// accepts to what the split on spaces it replaced accepted.
struct BearerTokenParsingTests {
    static func token(_ value: String) throws -> String {
        try AuthMiddleware<AuthRequestContext>.bearerToken(in: [.authorization: value])
    }

    @Test(arguments: [
        ("Bearer abc.def.ghi", "abc.def.ghi"), ("bearer abc", "abc"), ("BEARER abc", "abc"), ("bEaReR abc", "abc"),
        ("Bearer    abc", "abc"), ("Bearer abc   ", "abc"), ("Bearer é.ü", "é.ü"),
    ])
    func acceptsTheSchemeInAnyCaseAndSpacesAroundTheToken(header: String, expected: String) throws {
        #expect(try Self.token(header) == expected)
    }

    @Test(arguments: [
        "Basic abc", "Bearer", "Bearer  ", "bearer a b", "Bearerabc", "Token xyz", "Bearér abc", "Bearer\u{00A0}abc",
        "Beare abc", "Bearers abc", "Bearer\tabc", "`earer abc",
    ])
    func refusesAnythingElseAsCredentialsThatWereSent(header: String) {
        #expect(throws: AuthError.authRequired("the Authorization header is not a Bearer token", credentialsSent: true)) {
            try Self.token(header)
        }
    }

    @Test func aMissingHeaderIsNoCredentials() {
        #expect(throws: AuthError.authRequired("no credentials", credentialsSent: false)) {
            try AuthMiddleware<AuthRequestContext>.bearerToken(in: [:])
        }
    }
}
