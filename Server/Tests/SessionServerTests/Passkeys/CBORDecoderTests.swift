import Testing

@testable import SessionServer

/// The hand-written CBOR decoder (RFC 8949, WebAuthn's subset): what it
/// reads, and a typed refusal for everything else (docs/DESIGN.md).
struct CBORDecoderTests {
    @Test func decodesTheSubsetWebAuthnUses() throws {
        let bytes = TestCBOR.map([
            (.text("fmt"), .text("none")), (.int(-7), .int(-300)), (.int(70_000), .bytes([1, 2, 3])),
            (.text("list"), .array([.bool(true), .bool(false), .raw([0xf6])])),
        ]).encoded
        let value = try CBORDecoder.decode(bytes)
        #expect(value[text: "fmt"] == .text("none"))
        #expect(value[int: -7]?.int == -300)
        #expect(value[int: 70_000]?.byteString == [1, 2, 3])
        #expect(value[text: "list"] == .array([.bool(true), .bool(false), .null]))
    }

    @Test func readsEveryArgumentWidth() throws {
        for n: UInt64 in [0, 23, 24, 255, 256, 65_535, 65_536, 0xffff_ffff, 0x1_0000_0000, .max] {
            #expect(try CBORDecoder.decode(TestCBOR.head(0, n)) == .unsigned(n))
            #expect(try CBORDecoder.decode(TestCBOR.head(1, n)) == .negative(n))
        }
        // -1 - UInt64.max does not fit an Int: no integer, no crash.
        #expect(CBORValue.negative(.max).int == nil)
    }

    @Test(arguments: [
        ([0x5a, 0xff, 0xff, 0xff, 0xff], "ends early"),  // a 4 GiB byte string in 5 bytes
        ([0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], "ends early"),  // 2^64-1 array items
        ([0xbf, 0xff], "indefinite"),
        ([0x5f, 0xff], "indefinite"),
        ([0xc0, 0x00], "tag"),
        ([0xf9, 0x3c, 0x00], "float"),
        ([0xf7], "simple"),
        ([0x1c], "reserved"),
        ([0x62, 0xc3, 0x28], "UTF-8"),
        ([0xa2, 0x01, 0x00, 0x01, 0x00], "repeats a key"),
        ([0x00, 0x00], "after its item"),
        ([], "ends early"),
    ] as [([UInt8], String)])
    func refusesWithATypedError(bytes: [UInt8], expected: String) {
        let error = #expect(throws: CBORError.self) { try CBORDecoder.decode(bytes) }
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }

    @Test func boundsDepthAndItemCount() {
        let deep = [UInt8](repeating: 0x81, count: 100) + [0x00]
        #expect(throws: CBORError.tooDeep(limit: 8)) { try CBORDecoder.decode(deep) }
        let many = TestCBOR.array(Array(repeating: .int(0), count: 600)).encoded
        #expect(throws: CBORError.tooLarge("more than 512 items")) { try CBORDecoder.decode(many) }
    }

    @Test func decodesAPrefixAndSaysWhereItEnds() throws {
        let (value, consumed) = try CBORDecoder.decodePrefix(TestCBOR.int(5).encoded + [0xde, 0xad])
        #expect(value == .unsigned(5))
        #expect(consumed == 1)
    }
}
