/// GoTrue's email pattern, without a regular expression engine:
/// `^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`,
/// and at least one dot in the domain (an address mail can reach).
enum EmailShape {
    /// What may stand beside ASCII letters and digits before the `@`.
    static let localCharacters = Set(".!#$%&'*+/=?^_`{|}~-".utf8)

    static func isValid(_ address: String) -> Bool {
        let bytes = Array(address.utf8)
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        guard !local.isEmpty, local.allSatisfy({ isAlphanumeric($0) || localCharacters.contains($0) }) else { return false }
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            guard (1...63).contains(label.count), let first = label.first, let last = label.last,
                isAlphanumeric(first), isAlphanumeric(last)
            else { return false }
            return label.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
