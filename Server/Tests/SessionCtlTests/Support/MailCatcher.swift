import Foundation
import ProcessTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Server/scripts/smtp-listener.py (aiosmtpd) on a free loopback port: the
/// mailbox a `sessionctl` test reads its code from, as a person would.
final class MailCatcher: Sendable {
    let process: ChildProcess
    let port: Int
    let maildir: String

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../../scripts/smtp-listener.py").standardized.path

    init(directory: String) async throws {
        maildir = directory + "/maildir"
        process = try ChildProcess(
            executable: "/usr/bin/env", arguments: ["python3", Self.script, "--port", "0", "--maildir", maildir],
            output: .separate(in: directory, for: "smtp-listener"))
        var found: Int?
        for _ in 0..<500 where found == nil {
            if let line = process.stdout.split(separator: "\n").first, line.hasPrefix("READY ") { found = Int(line.dropFirst(6)) }
            if found == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        port = try #require(found, "smtp-listener.py did not start: \(process.output)")
    }

    /// The serve flags that send mail here.
    var serverArguments: [String] {
        ["--smtp-url", "smtp://127.0.0.1:\(port)?tls=none", "--mail-from", "Tests <auth@example.com>"]
    }

    /// The six-digit code of the `index`-th message (0 first), waiting up to 10 s for it.
    func code(ofMessage index: Int) async throws -> String {
        for _ in 0..<400 {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: maildir)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
            if names.count > index {
                let text = try String(contentsOfFile: maildir + "/" + names[index], encoding: .utf8)
                // "code is 123456" in the plain-text part (quoted-printable leaves digits as they are).
                if let range = text.range(of: #"code is \d{6}"#, options: .regularExpression) {
                    return String(text[range].suffix(6))
                }
                Issue.record("message \(index) has no code: \(text.prefix(400))")
                return ""
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw HarnessError("no message \(index) arrived at the SMTP listener")
    }
}

/// A FIFO standing in for a person at the keyboard: the test writes lines to
/// the child's standard input after it started (the code arrives by mail).
final class TypedInput: Sendable {
    let path: String
    private let descriptor: Int32

    init(directory: String) throws {
        path = directory + "/typed-\(UUID().uuidString.prefix(8))"
        guard mkfifo(path, 0o600) == 0 else { throw HarnessError("mkfifo failed: errno \(errno)") }
        // Read-write: opening never blocks, and the child's open finds a writer.
        descriptor = open(path, O_RDWR)
        guard descriptor >= 0 else { throw HarnessError("cannot open the FIFO: errno \(errno)") }
    }

    func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    deinit { close(descriptor) }
}
