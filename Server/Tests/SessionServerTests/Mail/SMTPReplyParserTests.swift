import NIOCore
import Testing
@testable import SessionServer

@Suite("SMTP reply parsing")
struct SMTPReplyParserTests {
    @Test func multiLineRepliesAcrossReads() throws {
        var parser = SMTPReplyParser()
        var first = ByteBuffer(string: "250-mail.example.com\r\n250-STARTTLS\r\n25")
        #expect(try parser.feed(&first).isEmpty)
        var second = ByteBuffer(string: "0 AUTH PLAIN LOGIN\r\n220 ready\r\n")
        let replies = try parser.feed(&second)
        #expect(replies == [
            SMTPReply(code: 250, lines: ["mail.example.com", "STARTTLS", "AUTH PLAIN LOGIN"]),
            SMTPReply(code: 220, lines: ["ready"]),
        ])
        #expect(parser.bufferedByteCount == 0)
    }

    @Test(arguments: ["hello\r\n", "25\r\n", "250x\r\n", "700 no\r\n", "250-a\r\n251 b\r\n"])
    func garbledRepliesAreRefused(_ text: String) {
        var parser = SMTPReplyParser()
        var buffer = ByteBuffer(string: text)
        #expect(throws: SMTPReplyParser.Failure.self) { try parser.feed(&buffer) }
    }

    @Test func bareCodeAndLFOnlyAreAccepted() throws {
        var parser = SMTPReplyParser()
        var buffer = ByteBuffer(string: "250\n")
        #expect(try parser.feed(&buffer) == [SMTPReply(code: 250, lines: [""])])
    }

    @Test func hugeLineFailsBeforeItIsBuffered() {
        var parser = SMTPReplyParser()
        let chunk = [UInt8](repeating: UInt8(ascii: "2"), count: 1000)
        var fedBytes = 0
        #expect(throws: SMTPReplyParser.Failure.lineTooLong) {
            for _ in 0..<5_000 {  // 5 MB, in small reads so the line grows step by step
                var buffer = ByteBuffer(bytes: chunk)
                fedBytes += chunk.count
                _ = try parser.feed(&buffer)
            }
        }
        #expect(fedBytes == 5_000)  // refused as soon as the line passed 4 KiB
        #expect(parser.bufferedByteCount <= SMTPReplyParser.maximumLineLength + 1)
    }

    @Test func tooManyContinuationLinesAreRefused() {
        var parser = SMTPReplyParser()
        var buffer = ByteBuffer(string: String(repeating: "250-x\r\n", count: 101) + "250 end\r\n")
        #expect(throws: SMTPReplyParser.Failure.tooManyLines) { try parser.feed(&buffer) }
    }
}
