import Foundation

// libFuzzer entry point for the hand-written WebAuthn parsers
// (Server/Sources/SessionServer/WebAuthn): the first byte picks the parser,
// the rest is its input, as a client could send it. Every input must decode
// or throw a typed error (CBORError, WebAuthnError) — never crash, hang or
// allocate past its size. Properties checked on what decodes:
// - CBOR: encoding the decoded item (preferred serialization) and decoding
//   that gives the same item, and takes no more bytes than the input did;
// - COSE keys: the key has the length its algorithm needs (64 or 32 bytes);
// - authenticator data: a credential ID is 1 to 1023 bytes, and its public
//   key's bytes decode to the same key.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebAuthnParsers(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let selector = start[0]
    let input = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    switch selector % 5 {
    case 0:
        guard let (value, consumed) = try? CBORDecoder.decodePrefix(input) else { return 0 }
        let encoded = FuzzCBOREncoder.encode(value)
        fuzzCheck(encoded.count <= consumed, "re-encoding \(value) took \(encoded.count) bytes, the input \(consumed)")
        let again = try? CBORDecoder.decode(encoded)
        fuzzCheck(again == value, "\(value) did not read back from its encoding")
    case 1:
        guard let key = try? COSEKey(bytes: input) else { return 0 }
        fuzzCheck(key.publicKey.count == (key.algorithm == .es256 ? 64 : 32), "a \(key.algorithm) key of \(key.publicKey.count) bytes")
    case 2:
        guard let data = try? AuthenticatorData(bytes: input) else { return 0 }
        if let credential = data.attestedCredential {
            fuzzCheck((1...1023).contains(credential.credentialID.count), "credential ID of \(credential.credentialID.count) bytes")
            fuzzCheck((try? COSEKey(bytes: credential.publicKeyBytes)) == credential.publicKey, "stored key bytes read back different")
        }
    case 3:
        _ = try? AttestationObject(bytes: input)
    default:
        _ = try? ClientData(bytes: input)
    }
    return 0
}

/// CBOR's preferred serialization (RFC 8949 §4.1) of the subset, for the round-trip property.
enum FuzzCBOREncoder {
    static func encode(_ value: CBORValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    static func head(_ major: UInt8, _ argument: UInt64, to out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: out.append(type | UInt8(argument))
        case 24...0xff: out += [type | 24, UInt8(argument)]
        case 0x100...0xffff: out += [type | 25] + (0..<2).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) }
        case 0x10000...0xffff_ffff: out += [type | 26] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) }
        default: out += [type | 27] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) }
        }
    }

    static func append(_ value: CBORValue, to out: inout [UInt8]) {
        switch value {
        case .unsigned(let n): head(0, n, to: &out)
        case .negative(let n): head(1, n, to: &out)
        case .bytes(let b): head(2, UInt64(b.count), to: &out); out += b
        case .text(let t): head(3, UInt64(t.utf8.count), to: &out); out += Array(t.utf8)
        case .array(let items): head(4, UInt64(items.count), to: &out); for item in items { append(item, to: &out) }
        case .map(let entries):
            head(5, UInt64(entries.count), to: &out)
            for entry in entries { append(entry.key, to: &out); append(entry.value, to: &out) }
        case .bool(let b): out.append(b ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        }
    }
}
