import Foundation

/// The 7-bit encodings a message needs so that any text survives every relay:
/// quoted-printable and base64 bodies, and RFC 2047 encoded words for headers.
enum MIMEEncoding {
    /// RFC 2045 caps encoded lines at 76 characters.
    static let maximumLineLength = 76

    /// Quoted-printable with CRLF hard breaks; every output line is at most 76 characters.
    /// Any line break in the input (CRLF, CR, LF) becomes one CRLF.
    static func quotedPrintable(_ text: String) -> String {
        var output = ""
        let lines = normalizedLines(text)
        for (index, line) in lines.enumerated() {
            var current = ""
            let bytes = Array(line.utf8)
            for (position, byte) in bytes.enumerated() {
                let isLast = position == bytes.count - 1
                let token: String
                // Trailing whitespace is encoded because relays may strip it; '=' because it is the escape.
                if (byte == 0x20 || byte == 0x09) && !isLast || (byte >= 0x21 && byte <= 0x7E && byte != 0x3D) {
                    token = String(UnicodeScalar(byte))
                } else {
                    token = "=" + hex(byte)
                }
                // Leave room for the soft break "=" so the line stays within 76.
                if current.count + token.count > maximumLineLength - 1 {
                    output += current + "=\r\n"
                    current = ""
                }
                current += token
            }
            output += current
            if index < lines.count - 1 { output += "\r\n" }
        }
        return output
    }

    /// Base64 in lines of 76 characters joined with CRLF.
    static func base64Lines(_ text: String) -> String {
        let encoded = Data(text.utf8).base64EncodedString()
        var lines: [Substring] = []
        var start = encoded.startIndex
        while start < encoded.endIndex {
            let end = encoded.index(start, offsetBy: maximumLineLength, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(encoded[start..<end])
            start = end
        }
        return lines.joined(separator: "\r\n")
    }

    /// Picks base64 when quoted-printable would bloat the text (mostly non-ASCII scripts).
    static func prefersBase64(_ text: String) -> Bool {
        let nonASCII = text.utf8.lazy.filter { $0 >= 0x80 }.count
        return nonASCII * 3 > text.utf8.count
    }

    /// RFC 2047 `=?utf-8?B?…?=` words, never splitting a character, joined by CRLF + space
    /// so a header folds between them.
    static func encodedWords(_ text: String) -> String {
        // 42 bytes make 56 base64 characters, a 68-character word: with "Subject: " in front
        // the first line stays within RFC 5322's 78 (RFC 2047 alone would allow 75 per word).
        let maximumBytes = 42
        var words: [String] = []
        var chunk: [UInt8] = []
        // By scalar, not grapheme: one grapheme can outgrow a whole word, one scalar is at most 4 bytes.
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > maximumBytes, !chunk.isEmpty {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append(encodedWord(chunk)) }
        return words.joined(separator: "\r\n ")
    }

    /// Whether a header value can go out as it is: printable ASCII, short, and not
    /// something a reader would mistake for an encoded word.
    static func isPlainHeaderText(_ text: String, maximumLength: Int) -> Bool {
        text.utf8.count <= maximumLength && !text.contains("=?")
            && text.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
    }

    /// Line breaks and other control characters in a header value become spaces, so no
    /// value can end a header line and start another.
    static func singleLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control ? " " : $0
        }))
    }

    private static func encodedWord(_ bytes: [UInt8]) -> String {
        "=?utf-8?B?" + Data(bytes).base64EncodedString() + "?="
    }

    private static func normalizedLines(_ text: String) -> [Substring] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
