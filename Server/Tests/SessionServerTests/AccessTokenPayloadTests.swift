import Crypto
import Foundation
import SessionCore
import Testing
@testable import SessionServer

/// ``AccessTokenPayload`` reads a token's payload in one decode and answers
/// what the two decodes before it answered (the claims, then `aal` and `cnf`
/// apart, docs/BENCHMARKS.md "Item 3 again"), on every input: odd `aal` and
/// `cnf` values, escaped and repeated keys, broken JSON.
struct AccessTokenPayloadTests {
    typealias Read = (claims: JWTClaims, aal: String?, jkt: String?)

    /// `aal` and `cnf` as the second decode read them before.
    struct AssuranceAsBefore: Decodable {
        var aal: String?
        var cnf: SessionServer.Confirmation?
    }

    /// The verifier's reading before this change: `nil` where it refused the payload.
    static func byTwoDecodes(_ payload: Data) -> Read? {
        let decoder = JSONDecoder()
        let claims: JWTClaims
        do { claims = try decoder.decode(JWTClaims.self, from: payload) } catch { return nil }
        do {
            let claim = try decoder.decode(AssuranceAsBefore.self, from: payload)
            return (claims, claim.aal, claim.cnf.map { $0.jkt ?? "" })
        } catch {
            return (claims, nil, payload.range(of: Data(#""cnf""#.utf8)) != nil ? "" : nil)
        }
    }

    static func byOneDecode(_ payload: Data) -> Read? {
        let read: AccessTokenPayload
        do { read = try JSONDecoder().decode(AccessTokenPayload.self, from: payload) } catch { return nil }
        let assurance = read.assurance(payload: payload)
        return (read.claims, assurance.aal, assurance.jkt)
    }

    static let aalValues = [
        #""aal1""#, #""aal2""#, #""""#, "null", "2", "true", "{}", #"["aal2"]"#, #""a\u0061l2""#, #""aal2\n""#,
    ]
    static let cnfValues = [
        #"{"jkt":"J1"}"#, #"{"jkt":null}"#, "{}", #"{"jkt":5}"#, #""J1""#, "null", "[]", "3", #"{"jkt":"J1","x":[1]}"#,
        #"{"j\u006bt":"J2"}"#, #"{"jkt":"J1","jkt":"J2"}"#, #"{"jkt":{"a":1}}"#, #"{"jkt":"\u00e9"}"#,
    ]
    static let otherMembers = [
        #""sub":"u1""#, #""sub":"""#, #""sub":7"#, #""aud":"authenticated""#, #""aud":["a","authenticated"]"#,
        #""aud":5"#, #""aud":null"#, #""exp":1800000600"#, #""exp":1.8e9"#, #""exp":"soon""#, #""exp":1e300"#,
        #""iat":1800000000"#, #""nbf":null"#, #""iss":"sessionkit""#, #""session_id":"s1""#, #""email":"cnf""#,
        #""email":"a\"cnf\"b""#, #""role":"\"cnf\"""#, #""amr":[{"method":"password","timestamp":1}]"#,
        #""is_anonymous":false"#, #""x":{"cnf":1}"#,
    ]
    static let aalKeys = [#""aal""#, #""a\u0061l""#]
    static let cnfKeys = [#""cnf""#, #""c\u006ef""#, #""cnf ""#]

    static func payload(using generator: inout some RandomNumberGenerator) -> String {
        var members: [String] = []
        for _ in 0..<Int.random(in: 0...6, using: &generator) { members.append(otherMembers.randomElement(using: &generator)!) }
        // Usually one `aal` and one `cnf`, sometimes none or two (a repeated key).
        for _ in 0..<[0, 1, 1, 1, 2].randomElement(using: &generator)! {
            members.append(aalKeys.randomElement(using: &generator)! + ":" + aalValues.randomElement(using: &generator)!)
        }
        for _ in 0..<[0, 1, 1, 1, 2].randomElement(using: &generator)! {
            members.append(cnfKeys.randomElement(using: &generator)! + ":" + cnfValues.randomElement(using: &generator)!)
        }
        members.shuffle(using: &generator)
        return "{" + members.joined(separator: Bool.random(using: &generator) ? "," : " , ") + "}"
    }

    /// What mutations insert: JSON's punctuation and the letters of the keys.
    static let inserted = Array(#"{}[]":,\ 0an"c"#.utf8)

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

    @Test func oneDecodeAnswersWhatTwoDecodesAnswered() {
        var generator = SystemRandomNumberGenerator()
        var (refused, bound, boundToNoKey, unbound, aal2) = (0, 0, 0, 0, 0)
        for round in 0..<24_000 {
            let text = Self.payload(using: &generator)
            let payload = round % 3 == 2 ? Self.mutated(text, using: &generator) : Data(text.utf8)
            let before = Self.byTwoDecodes(payload)
            let now = Self.byOneDecode(payload)
            let description = String(decoding: payload, as: UTF8.self)
            #expect((before == nil) == (now == nil), "\(description)")
            guard let before, let now else {
                refused += 1
                continue
            }
            #expect(now.claims == before.claims && now.aal == before.aal && now.jkt == before.jkt, "\(description)")
            switch before.jkt {
            case nil: unbound += 1
            case "": boundToNoKey += 1
            default: bound += 1
            }
            if before.aal == "aal2" { aal2 += 1 }
        }
        // Every answer was exercised, often.
        #expect(
            [refused, bound, boundToNoKey, unbound, aal2].allSatisfy { $0 > 200 },
            "refused \(refused), bound \(bound), to no key \(boundToNoKey), unbound \(unbound), aal2 \(aal2)")
    }

    struct FixedKey: VerificationKeySource {
        let key: P256.Signing.PublicKey
        func verificationKey(kid: String) async throws -> P256.Signing.PublicKey? { kid == "k1" ? key : nil }
    }

    /// A payload's `aal` and `cnf` members and what the verified token carries for them.
    struct Example: Sendable, CustomTestStringConvertible {
        var members: String
        var aal: String?
        var jkt: String?
        var testDescription: String { members }
    }

    /// Through the verifier: odd `aal` and `cnf` read as they were, fail closed.
    @Test(arguments: [
        Example(members: #","aal":"aal2","cnf":{"jkt":"J1"}"#, aal: "aal2", jkt: "J1"),
        Example(members: #","aal":2,"cnf":{"jkt":"J1"}"#, aal: nil, jkt: ""),
        Example(members: #","aal":"aal2","cnf":"J1""#, aal: nil, jkt: ""),
        Example(members: #","aal":"aal2","cnf":{}"#, aal: "aal2", jkt: ""),
        Example(members: #","aal":"aal2","cnf":null"#, aal: "aal2", jkt: nil),
        Example(members: #","aal":["aal2"]"#, aal: nil, jkt: nil),
        Example(members: #","aal":"aal2""#, aal: "aal2", jkt: nil),
    ])
    func aVerifiedTokenCarriesAalAndJKTAsBefore(example: Example) async throws {
        let key = P256.Signing.PrivateKey()
        let verifier = AccessTokenVerifier(
            keys: FixedKey(key: key.publicKey), issuer: "sessionkit", audience: "authenticated", leeway: 60)
        let payload = #"{"sub":"u1","aud":"authenticated","iss":"sessionkit","exp":1800000600\#(example.members)}"#
        let input = Base64URL.encode(Data(#"{"alg":"ES256","kid":"k1","typ":"JWT"}"#.utf8)) + "."
            + Base64URL.encode(Data(payload.utf8))
        let token = input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
        let verified = try await verifier.verify(token, now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(verified.aal == example.aal)
        #expect(verified.confirmationJKT == example.jkt)
        // The examples are the old reading's answers.
        let before = try #require(Self.byTwoDecodes(Data(payload.utf8)))
        #expect(before.aal == example.aal && before.jkt == example.jkt)
    }
}
