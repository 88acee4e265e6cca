import Testing
@testable import SessionServer

/// The stored form of refresh tokens and codes: a change here would orphan every stored hash.
struct SHA256HexTests {
    @Test func matchesTheStandardTestVectors() {
        #expect(SHA256Hex.of("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Hex.of("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // The key-encryption key's id is four bytes of this, and names what stored keys are sealed under.
        #expect(SHA256Hex.hex([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff")
    }
}

/// Key ids are typed on the command line (`auth-server keys retire KID`).
struct SigningKeyIDTests {
    @Test func aNewKidNeverReadsAsACommandLineOption() {
        for _ in 0..<2_000 {
            let kid = SigningKey.newKid()
            #expect(!kid.hasPrefix("-"), "\(kid)")
            #expect(kid.count == 16)
        }
    }
}
