import NIOCore

/// Splits the server's bytes into replies, with hard limits so a hostile or broken server
/// cannot make the client buffer without end: a line may hold at most 4 KiB and a reply at
/// most 100 lines (RFC 5321 asks for 512 bytes; real servers stay far below both).
struct SMTPReplyParser {
    enum Failure: Error, Equatable {
        case lineTooLong
        case tooManyLines
        case malformed(String)
    }

    static let maximumLineLength = 4096
    static let maximumLines = 100

    private var partialLine: [UInt8] = []
    private var code: Int?
    private var lines: [String] = []

    /// Bytes held back waiting for the rest of a reply; zero between replies.
    var bufferedByteCount: Int { partialLine.count + lines.reduce(0) { $0 + $1.utf8.count } }

    /// Consumes all of `buffer` and returns the replies it completed, in order.
    mutating func feed(_ buffer: inout ByteBuffer) throws(Failure) -> [SMTPReply] {
        var replies: [SMTPReply] = []
        while buffer.readableBytes > 0 {
            let view = buffer.readableBytesView
            guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
                // Checked before copying, so one huge read never lands in our storage.
                guard partialLine.count + view.count <= Self.maximumLineLength + 1 else { throw .lineTooLong }
                partialLine += view
                buffer.moveReaderIndex(forwardBy: view.count)
                break
            }
            let segment = view[view.startIndex..<newline]
            guard partialLine.count + segment.count <= Self.maximumLineLength + 1 else { throw .lineTooLong }
            var line = partialLine + segment
            partialLine = []
            buffer.moveReaderIndex(to: newline + 1)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if let reply = try accept(line) { replies.append(reply) }
        }
        return replies
    }

    /// Adds one line (without its line break) to the reply in progress.
    private mutating func accept(_ line: [UInt8]) throws(Failure) -> SMTPReply? {
        guard line.count >= 3, line.prefix(3).allSatisfy({ (0x30...0x39).contains($0) }),
              let value = Int(String(decoding: line.prefix(3), as: UTF8.self)), (200..<600).contains(value)
        else { throw .malformed("a reply line does not start with a code") }
        let separator = line.count > 3 ? line[3] : UInt8(ascii: " ")
        guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-") else {
            throw .malformed("reply code \(value) is followed by neither space nor '-'")
        }
        if let code, code != value { throw .malformed("continuation line \(value) inside reply \(code)") }
        code = value
        lines.append(String(decoding: line.dropFirst(4), as: UTF8.self))
        guard lines.count <= Self.maximumLines else { throw .tooManyLines }
        guard separator == UInt8(ascii: " ") else { return nil }
        defer { code = nil; lines = [] }
        return SMTPReply(code: value, lines: lines)
    }
}
