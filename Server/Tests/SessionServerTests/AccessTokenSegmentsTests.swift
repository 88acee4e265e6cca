import Crypto
import Foundation
import SessionCore
import SessionServer
import Testing

/// `AccessTokenVerifier` finds a token's segments in its bytes; these pin that
/// the signed input is exactly the first two segments and that any other shape
/// is an `AUTH_REQUIRED` refusal, never a crash.
struct AccessTokenSegmentsTests {
    struct FixedKey: VerificationKeySource {
        let key: P256.Signing.PublicKey
        func verificationKey(kid: String) async throws -> P256.Signing.PublicKey? { kid == "k1" ? key : nil }
    }

    static let privateKey = P256.Signing.PrivateKey()
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let verifier = AccessTokenVerifier(
        keys: FixedKey(key: privateKey.publicKey), issuer: "sessionkit", audience: "authenticated", leeway: 60)

    static func token(payload: String) throws -> String {
        let header = Base64URL.encode(Data(#"{"alg":"ES256","kid":"k1","typ":"JWT"}"#.utf8))
        let input = header + "." + Base64URL.encode(Data(payload.utf8))
        let signature = try privateKey.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + Base64URL.encode(signature)
    }

    static let claims = #"{"sub":"u1","aud":"authenticated","iss":"sessionkit","exp":1800000600,"session_id":"s1"}"#

    @Test func aWellFormedTokenVerifies() async throws {
        let verified = try await Self.verifier.verify(try Self.token(payload: Self.claims), now: Self.now)
        #expect(verified.userID == "u1")
        #expect(verified.sessionID == "s1")
    }

    @Test func theSignatureCoversTheFirstTwoSegmentsExactly() async throws {
        let token = try Self.token(payload: Self.claims)
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        let otherPayload = Base64URL.encode(Data(Self.claims.replacingOccurrences(of: "u1", with: "u2").utf8))
        let forged = [segments[0], Substring(otherPayload), segments[2]].joined(separator: ".")
        await #expect(throws: AuthError.authRequired("signature is invalid", credentialsSent: true)) {
            try await Self.verifier.verify(forged, now: Self.now)
        }
    }

    @Test(arguments: ["", ".", "..", "a.b", "a.b.c.d", "...", "é.é.é", "a.é.b", "\u{1F600}.\u{1F600}"])
    func anyOtherShapeIsRefused(token: String) async {
        await #expect(throws: AuthError.self) { try await Self.verifier.verify(token, now: Self.now) }
    }

    @Test func aFourthSegmentOrATrailingDotIsMalformed() async throws {
        let token = try Self.token(payload: Self.claims)
        for shape in [token + ".", token + ".e30", "." + token] {
            await #expect(throws: AuthError.authRequired("token is malformed", credentialsSent: true)) {
                try await Self.verifier.verify(shape, now: Self.now)
            }
        }
    }
}
