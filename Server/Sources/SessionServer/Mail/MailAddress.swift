/// An email address with an optional display name, checked once so it can go into
/// SMTP commands and headers without escaping.
///
/// The properties are read-only: a validated address that could later be set to
/// `"a@b>\r\nRCPT TO:<c@d"` would reopen the injection the initializer closes.
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// ASCII only: no SMTPUTF8, so international domains go in their `xn--` form.
    public private(set) var address: String
    /// Shown in From/To; RFC 2047-encoded in headers when not ASCII.
    public private(set) var name: String?

    /// Refuses anything that could break out of `<…>` in an SMTP command or a header:
    /// line breaks, angle brackets, commas, spaces, or more than the 254 bytes SMTP allows.
    public init(_ address: String, name: String? = nil) throws(MailError) {
        guard !address.isEmpty else { throw .invalidAddress("the address is empty") }
        guard address.utf8.count <= 254 else { throw .invalidAddress("longer than 254 bytes") }
        let forbidden = Set("<>(),;:\\\"[]".utf8)
        for byte in address.utf8 {
            guard byte > 0x20, byte < 0x7F else {
                throw .invalidAddress("contains a space, line break, control or non-ASCII character")
            }
            guard !forbidden.contains(byte) else {
                throw .invalidAddress("contains '\(Character(Unicode.Scalar(byte)))'")
            }
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .invalidAddress("needs exactly one '@'") }
        let (local, domain) = (parts[0], parts[1])
        guard !local.isEmpty, local.utf8.count <= 64 else { throw .invalidAddress("the part before '@' is empty or too long") }
        guard !domain.isEmpty, !domain.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
        else { throw .invalidAddress("the domain '\(domain)' is empty or has an empty label") }

        if let name, name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidAddress("the display name contains a line break or control character")
        }
        self.address = address
        self.name = name?.isEmpty == true ? nil : name
    }

    /// The part after the `@`, used to make Message-IDs that point at the sender's domain.
    var domain: Substring { address.split(separator: "@").last ?? "" }

    public var description: String {
        guard let name else { return address }
        return "\(name) <\(address)>"
    }
}
