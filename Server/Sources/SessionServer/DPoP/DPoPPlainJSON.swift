import Foundation

/// A reader for the two small JSON objects of a DPoP proof, header and claims,
/// when they are plainly simple; `nil` for anything else, which `JSONDecoder`
/// then decides exactly as before (``DPoPProof``).
///
/// Written by hand, and deliberately narrow (docs/DESIGN.md, "DPoP: what is
/// written by hand"): the two `JSONDecoder` decodes were the largest cost of
/// a proof's check beside its ECDSA (docs/BENCHMARKS.md, "Round 3 — items 4
/// and 5"). What it reads: one object of the known members only, each once,
/// keys and strings of printable ASCII without a backslash, `iat` a whole
/// number of 1 to 15 digits without a leading zero, the header's `jwk` an
/// object of the four known string members, and JSON's four white-space
/// characters between tokens. Everything it answers is what `JSONDecoder`
/// answers for the same bytes: `DPoPPlainJSONTests` compares the two on
/// generated and mutated objects, and so does `Fuzz/DPoPProofFuzz.swift`.
enum DPoPPlainJSON {
    /// The header's members, or `nil` when the bytes are not plainly simple.
    static func header(_ data: Data) -> DPoPProof.Header? {
        guard let read = members(of: data, nesting: true) else { return nil }
        var header = DPoPProof.Header()
        for (key, value) in read {
            switch (key, value) {
            case ("typ", .string(let text)): header.typ = text
            case ("alg", .string(let text)): header.alg = text
            case ("jwk", .object(let jwk)):
                var jwkMembers = DPoPPublicKey.Members()
                for (name, text) in jwk {
                    switch name {
                    case "kty": jwkMembers.kty = text
                    case "crv": jwkMembers.crv = text
                    case "x": jwkMembers.x = text
                    case "y": jwkMembers.y = text
                    // `d` and any other member: JSONDecoder decides.
                    default: return nil
                    }
                }
                header.jwk = jwkMembers
            default: return nil
            }
        }
        return header
    }

    /// The claims, or `nil` when the bytes are not plainly simple or lack a required member.
    static func claims(_ data: Data) -> DPoPClaims? {
        guard let read = members(of: data, nesting: false) else { return nil }
        var jti, htm, htu, ath, nonce: String?
        var iat: Int?
        for (key, value) in read {
            switch (key, value) {
            case ("jti", .string(let text)): jti = text
            case ("htm", .string(let text)): htm = text
            case ("htu", .string(let text)): htu = text
            case ("ath", .string(let text)): ath = text
            case ("nonce", .string(let text)): nonce = text
            case ("iat", .integer(let seconds)): iat = seconds
            default: return nil
            }
        }
        guard let jti, let htm, let htu, let iat else { return nil }
        return DPoPClaims(jti: jti, htm: htm, htu: htu, iat: Double(iat), ath: ath, nonce: nonce)
    }

    /// A member's value: all the fast path reads.
    private enum Value {
        case string(String)
        case integer(Int)
        case object([(String, String)])
    }

    /// The members of the one object `data` holds, in order, or `nil`. A
    /// repeated key, even in `jwk`, is `nil`: `JSONDecoder` decides which one counts.
    private static func members(of data: Data, nesting: Bool) -> [(String, Value)]? {
        data.withUnsafeBytes { raw in
            var bytes = raw.bindMemory(to: UInt8.self)[...]
            guard let members = object(&bytes, nesting: nesting) else { return nil }
            skipSpace(&bytes)
            return bytes.isEmpty ? members : nil
        }
    }

    private static func object(_ bytes: inout Slice<UnsafeBufferPointer<UInt8>>, nesting: Bool) -> [(String, Value)]? {
        skipSpace(&bytes)
        guard bytes.popFirst() == UInt8(ascii: "{") else { return nil }
        var members: [(String, Value)] = []
        skipSpace(&bytes)
        if bytes.first == UInt8(ascii: "}") {
            bytes.removeFirst()
            return members
        }
        while true {
            skipSpace(&bytes)
            guard let key = string(&bytes), !members.contains(where: { $0.0 == key }) else { return nil }
            skipSpace(&bytes)
            guard bytes.popFirst() == UInt8(ascii: ":") else { return nil }
            skipSpace(&bytes)
            guard let first = bytes.first else { return nil }
            switch first {
            case UInt8(ascii: "\""):
                guard let text = string(&bytes) else { return nil }
                members.append((key, .string(text)))
            case UInt8(ascii: "1")...UInt8(ascii: "9"):
                guard let number = integer(&bytes) else { return nil }
                members.append((key, .integer(number)))
            case UInt8(ascii: "{") where nesting:
                var inner: [(String, String)] = []
                guard let object = object(&bytes, nesting: false) else { return nil }
                for (name, value) in object {
                    guard case .string(let text) = value else { return nil }
                    inner.append((name, text))
                }
                members.append((key, .object(inner)))
            default:
                return nil
            }
            skipSpace(&bytes)
            switch bytes.popFirst() {
            case .some(UInt8(ascii: ",")): continue
            case .some(UInt8(ascii: "}")): return members
            default: return nil
            }
        }
    }

    /// A string of printable ASCII, no backslash: its bytes are its characters.
    private static func string(_ bytes: inout Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        guard bytes.popFirst() == UInt8(ascii: "\"") else { return nil }
        let start = bytes.startIndex
        while let byte = bytes.first, byte != UInt8(ascii: "\"") {
            guard (0x20...0x7E).contains(byte), byte != UInt8(ascii: "\\") else { return nil }
            bytes.removeFirst()
        }
        guard !bytes.isEmpty else { return nil }
        let text = String(decoding: bytes.base[start..<bytes.startIndex], as: UTF8.self)
        bytes.removeFirst()
        return text
    }

    /// 1 to 15 digits, the first not zero: exactly a `Double`, as JSONDecoder reads it.
    private static func integer(_ bytes: inout Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var value = 0
        var digits = 0
        while let byte = bytes.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            digits += 1
            guard digits <= 15 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            bytes.removeFirst()
        }
        // A fraction or an exponent: not an integer this reads.
        if let byte = bytes.first, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            return nil
        }
        return value
    }

    /// JSON's white space (RFC 8259 §2): space, tab, line feed, carriage return.
    private static func skipSpace(_ bytes: inout Slice<UnsafeBufferPointer<UInt8>>) {
        while let byte = bytes.first, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { bytes.removeFirst() }
    }
}
