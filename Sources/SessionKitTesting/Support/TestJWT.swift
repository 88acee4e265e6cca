import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// Real-looking JWTs for tests: a proper header and claims, a dummy signature.
public enum TestJWT {
    /// An access token with these claims; the signature part is random, so two tokens always differ.
    public static func make(
        subject: String = "user-1", sessionID: String? = "session-1", email: String? = nil,
        issuedAt: Date, expiresAt: Date?, issuer: String? = "https://fake.sessionkit.test/auth/v1"
    ) -> String {
        let header = #"{"alg":"ES256","kid":"test","typ":"JWT"}"#
        let claims = JWTClaims(
            sub: subject, aud: ["authenticated"], role: "authenticated", exp: expiresAt, iat: issuedAt, iss: issuer,
            sessionId: sessionID, email: email)
        let payload: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            payload = try encoder.encode(claims)
        } catch {
            payload = Data("{}".utf8)  // JWTClaims always encodes; keep the signature total anyway
        }
        var signature = [UInt8](repeating: 0, count: 32)
        for index in signature.indices { signature[index] = UInt8.random(in: 0...255) }
        return Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(payload) + "."
            + Base64URL.encode(Data(signature))
    }
}
