import Testing
@testable import SessionServer

/// The stored form of refresh tokens and codes: a change here would orphan every stored hash.
struct SHA256HexTests {
    @Test func matchesTheStandardTestVectors() {
        #expect(SHA256Hex.of("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Hex.of("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
