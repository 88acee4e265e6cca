import Foundation
import Testing
@testable import SessionServer

@Suite("MIME rendering")
struct MIMERenderingTests {
    let date = Date(timeIntervalSince1970: 1_000_000_000)  // Sun, 09 Sep 2001 01:46:40 UTC

    private func headers(of rendered: String) -> [Substring] {
        let head = rendered.components(separatedBy: "\r\n\r\n")[0]
        return head.split(separator: "\r\n")
    }

    @Test func headersInOrderWithCRLFOnly() throws {
        let rendered = try MailFixtures.plain().rendered(date: date, messageID: "abc@sessionkit.test")
        #expect(headers(of: rendered) == [
            "Date: Sun, 09 Sep 2001 01:46:40 +0000",
            "From: noreply@sessionkit.test",
            "To: bob@example.com",
            "Subject: Hello",
            "Message-ID: <abc@sessionkit.test>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
        ])
        #expect(rendered.hasSuffix("\r\n\r\nJust text.\r\n"))
        #expect(!rendered.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(!rendered.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
    }

    @Test(arguments: [
        (0.0, "Thu, 01 Jan 1970 00:00:00 +0000"),
        (951_782_400.0, "Tue, 29 Feb 2000 00:00:00 +0000"),
        (1_709_251_199.0, "Thu, 29 Feb 2024 23:59:59 +0000"),
        (-1.0, "Wed, 31 Dec 1969 23:59:59 +0000"),
    ])
    func dates(seconds: Double, expected: String) {
        #expect(RFC5322Date.string(from: Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test func nonASCIISubjectAndNameAreEncodedWords() throws {
        let rendered = try MailFixtures.tricky().rendered(date: date, messageID: "x@y")
        let subject = try #require(headers(of: rendered).first { $0.hasPrefix("Subject: ") })
        #expect(subject.hasPrefix("Subject: =?utf-8?B?") && subject.hasSuffix("?="))
        #expect(decodeWords(String(subject.dropFirst(9))) == "Grüße — your code is ready ✓")
        let from = try #require(headers(of: rendered).first { $0.hasPrefix("From: ") })
        #expect(from.hasSuffix(" <noreply@sessionkit.test>"))
        #expect(decodeWords(String(from.dropFirst(6).prefix { $0 != " " })) == "SessionKit Ålerts")
        #expect(headers(of: rendered).contains("To: \"Bob\" <bob@example.com>"))
    }

    @Test func longSubjectFoldsIntoShortWordsWithoutSplittingCharacters() throws {
        var message = try MailFixtures.plain()
        message.subject = String(repeating: "ü€𝄞 ", count: 40)
        let rendered = message.rendered(date: date, messageID: "x@y")
        let head = rendered.components(separatedBy: "\r\n\r\n")[0]
        let lines = head.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 })
        let start = try #require(lines.firstIndex { $0.hasPrefix("Subject: ") })
        let folded = lines[start...].prefix { $0.hasPrefix("Subject: ") || $0.hasPrefix(" ") }
        #expect(folded.count > 1)
        let words = folded.map { $0.hasPrefix("Subject: ") ? String($0.dropFirst(9)) : String($0.dropFirst()) }
        #expect(words.allSatisfy { $0.count <= 75 })
        #expect(words.map(decodeWords).joined() == message.subject)
    }

    @Test func quotedPrintableEscapesAndWrapsAt76() {
        #expect(MIMEEncoding.quotedPrintable("a=b café") == "a=3Db caf=C3=A9")
        #expect(MIMEEncoding.quotedPrintable("trailing \nx") == "trailing=20\r\nx")
        let long = MIMEEncoding.quotedPrintable(String(repeating: "é", count: 100) + String(repeating: "x", count: 300))
        let lines = long.components(separatedBy: "\r\n")
        #expect(lines.count > 5)
        #expect(lines.allSatisfy { $0.count <= 76 })
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix("=") })
        #expect(!long.contains("=C\r\n"))  // an escape is never split by a soft break
    }

    @Test func base64BodyForMostlyNonASCIIWrapsAt76() throws {
        var message = try MailFixtures.plain()
        message.text = String(repeating: "Привет, мир. ", count: 40)
        let rendered = message.rendered(date: date, messageID: "x@y")
        #expect(rendered.contains("Content-Transfer-Encoding: base64\r\n"))
        let body = rendered.components(separatedBy: "\r\n\r\n")[1]
        let lines = body.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.allSatisfy { $0.count <= 76 })
        let decoded = try #require(Data(base64Encoded: lines.joined()))
        #expect(String(decoding: decoded, as: UTF8.self) == message.text)
    }

    @Test func htmlMakesMultipartAlternative() throws {
        let rendered = try MailFixtures.tricky().rendered(date: date, messageID: "id-1@y")
        let boundary = "=_SessionKit_id1y"
        #expect(rendered.contains("Content-Type: multipart/alternative; boundary=\"\(boundary)\"\r\n"))
        #expect(rendered.components(separatedBy: "\r\n--\(boundary)\r\nContent-Type: text/").count == 3)
        #expect(rendered.hasSuffix("\r\n--\(boundary)--\r\n"))
        #expect(rendered.contains("Content-Type: text/html; charset=utf-8\r\n"))
        #expect(rendered.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
    }

    @Test func dotStuffingDoublesLeadingDotsAndTerminates() {
        #expect(SMTPData.payload(for: "a\r\n.b\r\n.\r\nc\r\n") == "a\r\n..b\r\n..\r\nc\r\n.\r\n")
        #expect(SMTPData.payload(for: ".first\nno final break") == "..first\r\nno final break\r\n.\r\n")
    }

    @Test func subjectLineBreaksCannotAddAHeader() throws {
        var message = try MailFixtures.plain()
        message.subject = "Hi\r\nBcc: evil@example.com\nX-Evil: 1"
        let lines = headers(of: message.rendered(date: date, messageID: "x@y\r\nX-Evil: 2"))
        #expect(!lines.contains { $0.hasPrefix("Bcc:") || $0.hasPrefix("X-Evil") })
        #expect(lines.filter { $0.hasPrefix("Subject: ") } == ["Subject: Hi  Bcc: evil@example.com X-Evil: 1"])
        #expect(lines.contains("Message-ID: <x@yX-Evil:2>"))
    }

    /// Decodes `=?utf-8?B?…?=` words separated by folding whitespace.
    private func decodeWords(_ value: String) -> String {
        value.split(whereSeparator: \.isWhitespace).map { word -> String in
            guard word.hasPrefix("=?utf-8?B?"), word.hasSuffix("?=") else { return String(word) }
            let payload = word.dropFirst(10).dropLast(2)
            return Data(base64Encoded: String(payload)).map { String(decoding: $0, as: UTF8.self) } ?? "<bad>"
        }.joined()
    }
}
