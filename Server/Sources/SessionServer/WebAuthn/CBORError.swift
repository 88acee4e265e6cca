/// Why bytes are not a CBOR item this server reads (RFC 8949, the subset
/// in ``CBORValue``). The message says what was wrong and where.
struct CBORError: Error, Sendable, Hashable, CustomStringConvertible {
    let description: String

    private init(_ description: String) { self.description = description }

    /// The input ends inside an item.
    static func truncated(at offset: Int) -> CBORError { CBORError("CBOR ends early, at byte \(offset).") }
    /// Reserved additional information (28 to 30), or a simple value or float the subset has no use for.
    static func malformed(_ what: String, at offset: Int) -> CBORError {
        CBORError("CBOR is malformed at byte \(offset): \(what).")
    }
    /// Valid CBOR the subset refuses: tags, floats, indefinite lengths.
    static func unsupported(_ what: String, at offset: Int) -> CBORError {
        CBORError("CBOR at byte \(offset) uses \(what), which is not accepted here.")
    }
    /// Nesting deeper than the limit.
    static func tooDeep(limit: Int) -> CBORError { CBORError("CBOR nests deeper than \(limit) levels.") }
    /// More items, or a longer string, than the limit.
    static func tooLarge(_ what: String) -> CBORError { CBORError("CBOR is too large: \(what).") }
    /// A map with the same key twice (RFC 8949 §5.6: not valid for WebAuthn's maps).
    static func duplicateKey(at offset: Int) -> CBORError { CBORError("CBOR map repeats a key at byte \(offset).") }
    /// A text string that is not UTF-8.
    static func invalidText(at offset: Int) -> CBORError { CBORError("CBOR text at byte \(offset) is not UTF-8.") }
    /// Bytes after the one item expected.
    static func trailingBytes(at offset: Int) -> CBORError { CBORError("CBOR has bytes after its item, from byte \(offset).") }
}
