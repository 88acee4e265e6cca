import Foundation
@testable import SessionServer

/// A stored .eml decoded by Python's `email` package, an independent MIME parser, so the
/// checks see what a mail client would show rather than what our renderer meant to write.
struct DeliveredMail: Decodable {
    var subject: String
    var from: String
    var to: String
    var envelopeTo: String?
    var text: String?
    var html: String?
    var defects: Int

    private static let parser = """
        import email, email.policy, json, sys
        m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
        out = {"subject": str(m["subject"]), "from": str(m["from"]), "to": str(m["to"]),
               "envelopeTo": m["x-envelope-to"], "text": None, "html": None, "defects": len(m.defects)}
        for part in m.walk():
            out["defects"] += len(part.defects)
            key = {"text/plain": "text", "text/html": "html"}.get(part.get_content_type())
            if key and out[key] is None:
                out[key] = part.get_content()
        print(json.dumps(out))
        """

    static func parse(_ file: URL) async throws -> DeliveredMail {
        let json = try await TestProcess.run(["python3", "-c", parser, file.path])
        return try JSONDecoder().decode(DeliveredMail.self, from: Data(json.utf8))
    }

    /// Every way this delivery differs from `message`; empty when it arrived intact.
    func mismatches(with message: MailMessage) -> [String] {
        var problems: [String] = []
        if subject != message.subject { problems.append("subject \(subject.debugDescription)") }
        if !to.contains(message.to.address) { problems.append("To \(to.debugDescription)") }
        if Self.normalized(text) != Self.normalized(message.text) { problems.append("text \(text.debugDescription)") }
        if Self.normalized(html) != Self.normalized(message.html) { problems.append("html \(html.debugDescription)") }
        if defects != 0 { problems.append("\(defects) MIME defects") }
        return problems
    }

    /// Line endings as LF and no trailing line break: the transfer encodings make both vary.
    private static func normalized(_ text: String?) -> String? {
        guard var value = text?.replacingOccurrences(of: "\r\n", with: "\n") else { return nil }
        while value.hasSuffix("\n") { value.removeLast() }
        return value
    }
}
