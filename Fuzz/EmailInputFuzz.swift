import Foundation

// libFuzzer entry point. The input is up to seven fields separated by 0xFF (a
// byte that never occurs in UTF-8): address, display name, subject template,
// text template, HTML template, a placeholder value, a ban duration.
// Properties:
// - MailAddress accepts nothing that could leave `<…>` or a header: no CR, LF,
//   `<`, `>` or space in the address, no control character in the name;
// - MailTemplate.render escapes values in the HTML body (every `<`, `>`, `"`, `'`
//   of the output comes from the template's literal text) and keeps the subject on one line;
// - MailMessage.rendered is CRLF only, 7-bit, no line over 998 bytes, and its header
//   block holds exactly the headers it writes (one Subject:, no injected ones);
// - BanDuration.parse returns nil only for `none`, otherwise a positive finite number.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEmailInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    var fields = bytes.split(separator: 0xFF, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    while fields.count < 7 { fields.append("") }
    let (address, name, subject, text, html, value, ban) = (fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6])
    // Any second from 1901 to 2038, picked by the input, so the Date: header varies too.
    let seed = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let date = Date(timeIntervalSince1970: TimeInterval(Int32(bitPattern: seed)))

    let fallback = try! MailAddress("sender@example.com")
    let from = checkAddress(address, name: name.isEmpty ? nil : name) ?? fallback
    let to = checkAddress(address, name: nil) ?? (try? MailAddress("user@example.com", name: name)) ?? fallback

    // A message straight from the fuzzed text, raw line breaks and all.
    checkMIME(MailMessage(from: from, to: to, subject: subject, text: text, html: html.isEmpty ? nil : html), date: date)

    if let template = try? MailTemplate(subject: subject, text: text, html: html, source: "fuzz") {
        var values: [MailTemplate.Placeholder: String] = [:]
        for placeholder in MailTemplate.Placeholder.allCases { values[placeholder] = value + "<x>" }
        let output = template.render(values)
        checkRendered(output, template: template)
        checkMIME(MailMessage(from: from, to: to, subject: output.subject, text: output.text, html: output.html), date: date)
    }

    do {
        if let seconds = try BanDuration.parse(ban) {
            fuzzCheck(seconds.isFinite && seconds > 0, "BanDuration.parse(\(ban.debugDescription)) returned \(seconds)")
        } else {
            fuzzCheck(ban == "none", "BanDuration.parse(\(ban.debugDescription)) returned nil")
        }
    } catch {
        // AuthError.invalidRequest: the expected outcome for most inputs.
    }
    return 0
}

func checkAddress(_ address: String, name: String?) -> MailAddress? {
    guard let mailbox = try? MailAddress(address, name: name) else { return nil }
    for forbidden in ["\r", "\n", "<", ">", " "] {
        fuzzCheck(!mailbox.address.contains(forbidden), "MailAddress accepted \(mailbox.address.debugDescription)")
    }
    fuzzCheck(mailbox.address.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "MailAddress accepted \(mailbox.address.debugDescription)")
    if let name = mailbox.name {
        fuzzCheck(!name.unicodeScalars.contains { $0.properties.generalCategory == .control },
                     "MailAddress accepted the name \(name.debugDescription)")
    }
    return mailbox
}

func checkRendered(_ output: (subject: String, text: String, html: String), template: MailTemplate) {
    fuzzCheck(!output.subject.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }),
                 "rendered subject has a line break: \(output.subject.debugDescription)")
    let literals = template.html.map { part -> String in
        if case .literal(let text) = part { return text } else { return "" }
    }.joined()
    for special in ["<", ">", "\"", "'"] as [Character] {
        let inOutput = output.html.unicodeScalars.filter { Character($0) == special }.count
        let inLiterals = literals.unicodeScalars.filter { Character($0) == special }.count
        fuzzCheck(inOutput == inLiterals,
                     "a value put \(special) into the HTML unescaped: \(output.html.prefix(300).debugDescription)")
    }
    if !literals.contains("<") {
        fuzzCheck(!output.html.contains("<x>"), "a value's <x> reached the HTML: \(output.html.prefix(300).debugDescription)")
    }
}

func checkMIME(_ message: MailMessage, date: Date) {
    let rendered = message.rendered(date: date, messageID: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0@\(message.from.domain)")
    let data = Array(rendered.utf8)
    fuzzCheck(data.allSatisfy { $0 < 0x80 }, "rendered message is not 7-bit")
    fuzzCheck(rendered.hasSuffix("\r\n"), "rendered message does not end in CRLF")
    // Split on bytes: Swift's String treats "\r\n" as one Character.
    var lines: [ArraySlice<UInt8>] = []
    var lineStart = 0
    var index = 0
    while index < data.count {
        if data[index] == 0x0D {
            fuzzCheck(index + 1 < data.count && data[index + 1] == 0x0A, "bare CR at byte \(index)")
            lines.append(data[lineStart..<index])
            index += 2
            lineStart = index
        } else {
            fuzzCheck(data[index] != 0x0A, "bare LF at byte \(index)")
            index += 1
        }
    }
    for line in lines {
        fuzzCheck(line.count <= 998, "a line of \(line.count) bytes")
    }
    // The header block: up to the first empty line.
    let headers = lines.prefix { !$0.isEmpty }.map { String(decoding: $0, as: UTF8.self) }
    let expected = ["Date:", "From:", "To:", "Subject:", "Message-ID:", "MIME-Version:", "Content-Type:", "Content-Transfer-Encoding:"]
    var subjects = 0
    for line in headers {
        if line.hasPrefix(" ") || line.hasPrefix("\t") { continue }  // a folded continuation
        guard let name = expected.first(where: { line.hasPrefix($0) }) else {
            fatalError("unexpected header line \(line.prefix(200).debugDescription)")
        }
        if name == "Subject:" { subjects += 1 }
    }
    fuzzCheck(subjects == 1, "\(subjects) Subject: lines in the header block")
}
