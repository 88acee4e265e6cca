/// What a log line or a description may say about a token: nothing of it.
///
/// No characters of a token are ever shown. GoTrue's refresh tokens are 12
/// characters, so the 6-character prefix this once printed was half the
/// secret. A log that must tell two tokens apart (which one a refresh
/// spent) uses ``fingerprint(_:)``: 32 bits of a hash, which names a token
/// among the few a log mentions but leaves even a 12-character token's
/// ~71 bits out of reach.
public enum TokenRedaction {
    /// `<redacted>`, or `<empty>` for an empty token (a difference worth seeing).
    public static func redacted(_ token: String) -> String {
        token.isEmpty ? "<empty>" : "<redacted>"
    }

    /// A short, stable tag for `token`: `#` and 8 hexadecimal digits of its
    /// FNV-1a hash, folded to 32 bits. Contains no character of the token.
    public static func fingerprint(_ token: String) -> String {
        guard !token.isEmpty else { return "<empty>" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in token.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let folded = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
        let hex = String(folded, radix: 16)
        return "#" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
