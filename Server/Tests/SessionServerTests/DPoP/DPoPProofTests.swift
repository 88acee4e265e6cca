import Crypto
import Foundation
import SessionCore
import Testing
@testable import SessionServer

/// The proof parser and verifier alone (docs/DPOP.md, "The wire").
struct DPoPProofTests {
    final class MemoryReplay: DPoPReplayGuard, @unchecked Sendable {
        // Tests only: one task at a time uses it.
        var seen: Set<String> = []
        func recordFirstUse(of key: String, until expiresAt: Date, now: Date) async throws -> Bool { seen.insert(key).inserted }
    }

    let now = Date(timeIntervalSince1970: 1_767_225_600)
    var iat: Int { Int(now.timeIntervalSince1970) }
    let key = DPoPTestKey()

    func verify(_ proof: String, method: String = "POST", path: String = "/auth/v1/token", token: String? = nil,
                external: URL? = nil, replay: MemoryReplay = MemoryReplay()) async throws -> String {
        try await DPoPVerifier(replay: replay, externalURL: external).verify(
            .init(proofs: [proof], method: method, path: path, host: "localhost", accessToken: token), now: now)
    }

    @Test func aValidProofGivesItsKeysThumbprint() async throws {
        #expect(try await verify(key.proof(iat: iat)) == key.thumbprint)
    }

    /// RFC 7638 §3.2: the required EC members in lexical order, no whitespace, hashed as sent.
    @Test func theThumbprintHashesTheRequiredMembersInOrder() throws {
        var members = try JSONDecoder().decode(
            DPoPPublicKey.Members.self,
            from: Data(#"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRjGzBz9NJNQ6SI2QvcXY-xHJw0PhH4pdRWB2W4"}"#.utf8))
        members.hasPrivatePart = false
        let thumbprint = try DPoPPublicKey(members).thumbprint
        let expected = Base64URL.encode(Data(SHA256.hash(data: Data(
            #"{"crv":"P-256","kty":"EC","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRjGzBz9NJNQ6SI2QvcXY-xHJw0PhH4pdRWB2W4"}"#.utf8))))
        #expect(thumbprint == expected)
    }

    @Test func htuIsComparedNormalised() async throws {
        #expect(try await verify(key.proof(url: "HTTP://LocalHost:80/auth/v1/token?x=1", iat: iat)) == key.thumbprint)
        #expect(try await verify(key.proof(url: "https://localhost/auth/v1/token", iat: iat)) == key.thumbprint)
        let strict = URL(string: "https://auth.example.com/")!
        await #expect(throws: DPoPError.wrongURL) {
            try await verify(key.proof(url: "http://auth.example.com/auth/v1/token", iat: iat), external: strict)
        }
        #expect(try await verify(key.proof(url: "https://auth.example.com:443/auth/v1/token", iat: iat), external: strict) != "")
    }

    @Test func theWindowIs300SecondsBackAnd60Ahead() async throws {
        #expect(try await verify(key.proof(iat: iat - 300)) == key.thumbprint)
        #expect(try await verify(key.proof(iat: iat + 60)) == key.thumbprint)
        await #expect(throws: DPoPError.issuedOutsideWindow) { try await verify(key.proof(iat: iat - 301)) }
        await #expect(throws: DPoPError.issuedOutsideWindow) { try await verify(key.proof(iat: iat + 61)) }
    }

    @Test func aLongJTIIsRefused() async throws {
        await #expect(throws: DPoPError.malformed("")) { try await verify(key.proof(iat: iat, jti: String(repeating: "a", count: 65))) }
    }

    /// Fuzz-style: every mutation of a valid proof (a flipped byte, a cut, a
    /// swapped segment) ends in a typed DPoPError, never a crash or a pass.
    @Test func mutatedProofsAreRefusedWithATypedError() async throws {
        let valid = Array(key.proof(iat: iat).utf8)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<600 {
            var bytes = valid
            switch round % 3 {
            case 0:
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            case 1:
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
            default:
                bytes.insert(UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...bytes.count, using: &generator))
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard text != String(decoding: valid, as: UTF8.self) else { continue }
            do {
                let jkt = try await verify(text)
                // A flip inside base64url padding bits may leave the proof intact; then it must be the same key.
                #expect(jkt == key.thumbprint)
            } catch is DPoPError {
            }
        }
    }
}
