import Foundation
import Testing

@testable import SessionServer

/// RFC 6238's test vectors (Appendix B, SHA-1) and the replay-free window rules.
struct TOTPTests {
    /// The RFC's SHA-1 secret: the ASCII bytes of "12345678901234567890".
    let rfc = TOTP(secret: Array("12345678901234567890".utf8))

    @Test(arguments: [(59.0, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"),
        (2_000_000_000, "279037"), (20_000_000_000, "353130")])
    func computesTheRFCCodes(seconds: Double, code: String) {
        // The RFC lists 8 digits; authenticator apps and GoTrue use the last 6.
        #expect(rfc.code(step: TOTP.step(at: Date(timeIntervalSince1970: seconds))) == code)
    }

    @Test func acceptsTheStepOnEitherSideAndNoFurther() {
        let now = Date(timeIntervalSince1970: 1_111_111_109)
        let step = TOTP.step(at: now)
        #expect(rfc.matchingStep(of: rfc.code(step: step), at: now) == step)
        #expect(rfc.matchingStep(of: rfc.code(step: step - 1), at: now) == step - 1)
        #expect(rfc.matchingStep(of: rfc.code(step: step + 1), at: now) == step + 1)
        #expect(rfc.matchingStep(of: rfc.code(step: step - 2), at: now) == nil)
        #expect(rfc.matchingStep(of: rfc.code(step: step + 2), at: now) == nil)
    }

    @Test(arguments: ["", "12345", "1234567", "12345a", "١٢٣٤٥٦", " 28708"])
    func refusesCodesThatAreNotSixDigits(code: String) {
        #expect(rfc.matchingStep(of: code, at: Date(timeIntervalSince1970: 59)) == nil)
    }

    @Test func base32RoundTripsTheSecret() {
        let totp = TOTP.generate()
        #expect(totp.secret.count == 20)
        #expect(totp.base32Secret.count == 32)
        #expect(Base32.decode(totp.base32Secret) == totp.secret)
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(Base32.decode("mzxw6ytboi======") == Array("foobar".utf8))
        #expect(Base32.decode("MZXW1") == nil)
    }

    @Test func uriIsTheKeyURIFormatAuthenticatorsRead() throws {
        let totp = TOTP(secret: Array("12345678901234567890".utf8))
        let uri = totp.uri(issuer: "Acme Co", accountName: "ada+1@example.com")
        #expect(
            uri == "otpauth://totp/Acme%20Co:ada%2B1@example.com?algorithm=SHA1&digits=6&issuer=Acme%20Co&period=30"
                + "&secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        let components = try #require(URLComponents(string: uri))
        #expect(components.queryItems?.first { $0.name == "secret" }?.value == totp.base32Secret)
    }
}
