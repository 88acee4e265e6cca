import Foundation
import SessionCore
import Testing
@testable import SessionServer

/// ``DPoPPlainJSON`` answers, whenever it answers, what `JSONDecoder` answers
/// for the same bytes, on generated proof headers and claims and on mutations
/// of them (docs/DESIGN.md, "DPoP: what is written by hand").
struct DPoPPlainJSONTests {
    static func decoded<T: Decodable>(_ type: T.Type, _ data: Data) -> T? {
        do { return try JSONDecoder().decode(type, from: data) } catch { return nil }
    }

    static let coordinate = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"

    /// Header members: the usual, odd values, escapes, unknown members, a private key.
    static let headerMembers = [
        #""typ":"dpop+jwt""#, #""typ":"DPOP+JWT""#, #""typ":"dpop\u002bjwt""#, #""typ":5"#, #""typ":null"#, #""typ":"""#,
        #""alg":"ES256""#, #""alg":"none""#, #""alg":"ES\u0032\u0035\u0036""#, #""alg":256"#, #""alg":["ES256"]"#,
        #""t\u0079p":"dpop+jwt""#, #""kid":"k1""#, #""x5c":["a"]"#, #""jwk":null"#, #""jwk":"key""#, #""jwk":{}"#,
    ]

    static let jwkMembers = [
        #""kty":"EC""#, #""crv":"P-256""#, #""x":"\#(coordinate)""#, #""y":"\#(coordinate)""#, #""d":"\#(coordinate)""#,
        #""kty":"E\u0043""#, #""kid":"k""#, #""x":5"#, #""y":null"#, #""crv":{"a":"b"}"#, #""x":"é""#,
    ]

    /// Claims members: the usual, every spelling of a number, odd values and escapes.
    static let claimMembers = [
        #""jti":"e7b3a1c2-5d4f-4b6a-9c8d-0f1e2d3c4b5a""#, #""jti":"""#, #""jti":"a\u0062c""#, #""jti":"é""#, #""jti":7"#,
        #""htm":"GET""#, #""htm":"POST""#, #""htm":null"#,
        #""htu":"https://auth.example.com/auth/v1/user""#, #""htu":"https:\/\/auth.example.com\/x""#,
        #""iat":1800000000"#, #""iat":0"#, #""iat":012"#, #""iat":1.5"#, #""iat":1e9"#, #""iat":1E3"#, #""iat":-5"#,
        #""iat":1800000000.0"#, #""iat":1234567890123456"#, #""iat":123456789012345"#, #""iat":"1800000000""#,
        #""iat":null"#, #""iat":true"#, #""ath":"fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo""#, #""ath":null"#,
        #""ath":5"#, #""nonce":"n-1""#, #""exp":1"#, #""foo":"bar""#,
    ]

    /// Between tokens: usually nothing, often JSON's white space, rarely a character that is not.
    static func space(using generator: inout some RandomNumberGenerator) -> String {
        switch Int.random(in: 0..<400, using: &generator) {
        case 0: "\u{0B}"
        case 1: "\u{A0}"
        case 2..<60: [" ", "\n", "\t", "\r", "  "].randomElement(using: &generator)!
        default: ""
        }
    }

    static func object(_ members: [String], using generator: inout some RandomNumberGenerator) -> String {
        var text = space(using: &generator) + "{"
        for (index, member) in members.enumerated() {
            if index > 0 { text += space(using: &generator) + "," }
            text += space(using: &generator)
            let colon = space(using: &generator) + ":" + space(using: &generator)
            text += colon == ":" ? member : member.replacingOccurrences(of: "\":", with: "\"" + colon)
        }
        return text + space(using: &generator) + "}" + space(using: &generator)
    }

    static func header(using generator: inout some RandomNumberGenerator) -> String {
        var members = [#""typ":"dpop+jwt""#, #""alg":"ES256""#]
        var jwk = [#""kty":"EC""#, #""crv":"P-256""#, #""x":"\#(coordinate)""#, #""y":"\#(coordinate)""#]
        for _ in 0..<[0, 0, 0, 1, 2].randomElement(using: &generator)! {
            members.append(headerMembers.randomElement(using: &generator)!)
        }
        for _ in 0..<[0, 0, 0, 1, 2].randomElement(using: &generator)! { jwk.append(jwkMembers.randomElement(using: &generator)!) }
        if Int.random(in: 0..<4, using: &generator) == 0 { jwk.removeLast() }
        members.append(#""jwk":"# + object(jwk.shuffled(using: &generator), using: &generator))
        if Int.random(in: 0..<6, using: &generator) == 0 { members.removeFirst() }
        return object(members.shuffled(using: &generator), using: &generator)
    }

    static func claims(using generator: inout some RandomNumberGenerator) -> String {
        var members = [
            #""jti":"e7b3a1c2-5d4f-4b6a-9c8d-0f1e2d3c4b5a""#, #""htm":"GET""#,
            #""htu":"https://auth.example.com/auth/v1/user""#, #""iat":1800000000"#,
        ]
        for _ in 0..<[0, 0, 0, 1, 2].randomElement(using: &generator)! {
            members.append(claimMembers.randomElement(using: &generator)!)
        }
        if Int.random(in: 0..<6, using: &generator) == 0 { members.remove(at: Int.random(in: 0..<4, using: &generator)) }
        return object(members.shuffled(using: &generator), using: &generator)
    }

    /// What mutations insert: JSON's punctuation, digits, letters of the keys, a backslash, a non-ASCII byte.
    static let inserted = Array(#"{}[]":,.\ 0159eEajtyx-"#.utf8) + [0xC3, 0x00, 0x7F]

    static func mutated(_ text: String, using generator: inout some RandomNumberGenerator) -> Data {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let index = Int.random(in: 0...bytes.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: bytes.insert(inserted.randomElement(using: &generator)!, at: index)
            case 1 where index < bytes.count: bytes.remove(at: index)
            default: if index < bytes.count { bytes[index] = inserted.randomElement(using: &generator)! }
            }
        }
        return Data(bytes)
    }

    /// Counts of what happened, so a test shows both readers were exercised.
    struct Tally {
        var fast = 0
        var decoderOnly = 0
        var neither = 0
    }

    @Test func headersReadAsJSONDecoderReadsThem() {
        var generator = SystemRandomNumberGenerator()
        var tally = Tally()
        for round in 0..<20_000 {
            let text = Self.header(using: &generator)
            let data = round % 3 == 2 ? Self.mutated(text, using: &generator) : Data(text.utf8)
            let decoded = Self.decoded(DPoPProof.Header.self, data)
            if let fast = DPoPPlainJSON.header(data) {
                #expect(fast == decoded, "\(String(decoding: data, as: UTF8.self).debugDescription)")
                tally.fast += 1
            } else if decoded != nil {
                tally.decoderOnly += 1
            } else {
                tally.neither += 1
            }
        }
        #expect(tally.fast > 1_000 && tally.decoderOnly > 1_000 && tally.neither > 1_000, "\(tally)")
    }

    @Test func claimsReadAsJSONDecoderReadsThem() {
        var generator = SystemRandomNumberGenerator()
        var tally = Tally()
        for round in 0..<20_000 {
            let text = Self.claims(using: &generator)
            let data = round % 3 == 2 ? Self.mutated(text, using: &generator) : Data(text.utf8)
            let decoded = Self.decoded(DPoPClaims.self, data)
            if let fast = DPoPPlainJSON.claims(data) {
                #expect(fast == decoded, "\(String(decoding: data, as: UTF8.self).debugDescription)")
                tally.fast += 1
            } else if decoded != nil {
                tally.decoderOnly += 1
            } else {
                tally.neither += 1
            }
        }
        #expect(tally.fast > 1_000 && tally.decoderOnly > 1_000 && tally.neither > 1_000, "\(tally)")
    }

    @Test func aProofAsClientsWriteItTakesTheFastPath() throws {
        let key = DPoPTestKey()
        let proof = key.proof("GET", url: "https://auth.example.com/auth/v1/user", iat: 1_800_000_000, accessToken: "t", nonce: "n")
        let parts = proof.split(separator: ".")
        let headerJSON = try #require(Base64URL.decode(parts[0]))
        let header = try #require(DPoPPlainJSON.header(headerJSON))
        #expect(header.typ == "dpop+jwt" && header.alg == "ES256" && header.jwk?.x == key.x && header.jwk?.y == key.y)
        let claimsJSON = try #require(Base64URL.decode(parts[1]))
        let claims = try #require(DPoPPlainJSON.claims(claimsJSON))
        #expect(claims.htm == "GET" && claims.iat == 1_800_000_000 && claims.nonce == "n" && claims.ath != nil)
    }

    @Test(arguments: [
        #"{"typ":"dpop+jwt","typ":"dpop+jwt"}"#, #"{"typ":"dpop\u002bjwt"}"#, #"{"typ":"dpop+jwt",}"#,
        #"{"jwk":{"kty":"EC","d":"x"}}"#, #"{"jwk":{"kty":"EC","kty":"EC"}}"#, #"{"typ":"dpop+jwt"} x"#, "\u{FEFF}{}",
    ])
    func anythingNotPlainlySimpleIsLeftToJSONDecoder(text: String) {
        #expect(DPoPPlainJSON.header(Data(text.utf8)) == nil)
    }
}
