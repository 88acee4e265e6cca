import Testing
@testable import SessionServer

@Suite("Mail addresses")
struct MailAddressTests {
    @Test func acceptsPlainAddressesAndNames() throws {
        let address = try MailAddress("first.last+tag@mail.example.com", name: "Zoë, the \"Admin\"")
        #expect(address.address == "first.last+tag@mail.example.com")
        #expect(address.name == "Zoë, the \"Admin\"")
        #expect(address.domain == "mail.example.com")
        #expect(try MailAddress("a@b", name: "").name == nil)
    }

    @Test(arguments: [
        "", "plain", "a@b@c", "@example.com", "a@", "a b@example.com", "a@example..com",
        "a@b\r\nRCPT TO:<evil@example.com>", "a@b>", "<a@b", "a,b@c", "a@b\n", "é@example.com",
        String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 190),
        String(repeating: "a", count: 65) + "@b",
    ])
    func refusesAddressesThatCouldBreakOut(_ text: String) {
        #expect(throws: MailError.self) { try MailAddress(text) }
        do {
            _ = try MailAddress(text)
        } catch {
            // Typed throw: `error` is a MailError here without a cast.
            #expect(error.kind == .invalidAddress)
            #expect(!error.isTransient)
        }
    }

    @Test(arguments: ["Bob\r\nBcc: evil@example.com", "Bob\nX: y", "Bob\u{0}"])
    func refusesDisplayNamesWithLineBreaks(_ name: String) {
        #expect(throws: MailError.self) { try MailAddress("bob@example.com", name: name) }
    }
}
