import Crypto
import Foundation
import HTTPTypes
@testable import SessionServer
import Testing

/// The request path's two shortcuts (docs/BENCHMARKS.md, "Round 3 — the
/// request path's profile") against the code they replace, over generated input.
struct RequestPathShortcutsTests {
    /// What `AuthMiddleware.credentials` read before: every `Authorization` value, joined.
    static func joined(_ headers: HTTPFields) -> String? { headers[.authorization] }

    static let values = [
        "Bearer abc.def.ghi", "", " ", "Bearer", "Bearer a", "DPoP x.y.z", "bearer  é.ü  ", "Basic Zm9v", "Bearer a,",
        ", Bearer b", "Bearer a b",
    ]

    @Test func readsTheAuthorizationValueAsTheJoinedSubscriptDid() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            var headers = HTTPFields()
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: headers.append(HTTPField(name: .authorization, value: Self.values.randomElement(using: &generator)!))
                case 1: headers.append(HTTPField(name: .accept, value: "application/json"))
                default: headers.append(HTTPField(name: HTTPField.Name("X-Other")!, value: Self.values.randomElement(using: &generator)!))
                }
            }
            #expect(AuthMiddleware<AuthRequestContext>.authorization(in: headers) == Self.joined(headers), "\(headers)")
        }
    }

    @Test func refusesTwoAuthorizationFieldsAsBefore() {
        let headers: HTTPFields = [.authorization: "Bearer a", .authorization: "Bearer b"]
        #expect(AuthMiddleware<AuthRequestContext>.authorization(in: headers) == "Bearer a, Bearer b")
        #expect(throws: AuthError.authRequired("the Authorization header is not a Bearer token", credentialsSent: true)) {
            try AuthMiddleware<AuthRequestContext>.credentials(in: headers)
        }
    }

    @Test func keysATokenByTheSameDigestAsItsDataCopy() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcXYZ019-_.é€😀 ")
        for length in [0, 1, 31, 32, 33, 64, 800, 1_500] {
            for _ in 0..<20 {
                let token = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
                #expect(VerifiedTokenCache.key(for: token) == SHA256.hash(data: Data(token.utf8)))
            }
        }
        // A string that is not native UTF-8 storage until `withUTF8` makes it so.
        let bridged = NSString(string: "Bearer-ish token é").description
        #expect(VerifiedTokenCache.key(for: bridged) == SHA256.hash(data: Data(bridged.utf8)))
    }
}
