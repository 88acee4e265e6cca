import Foundation

/// The real SMTP server of scripts/smtp-listener.py (aiosmtpd) on a free loopback port,
/// for as long as the test holds it. Stops the process on `stop()` or when released.
///
/// Unchecked Sendable: every stored property is set once in `init`, and
/// `Process.terminate()` may be called from any thread.
final class SMTPListener: @unchecked Sendable {
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    let directory: URL
    var maildir: URL { directory.appendingPathComponent("maildir") }
    private let process: Process

    private init(port: Int, directory: URL, process: Process) {
        self.port = port
        self.directory = directory
        self.process = process
    }

    /// Offers STARTTLS (and requires it) with `certificate`; requires AUTH with `auth` ("user:pass").
    static func start(certificate: TestCertificate? = nil, auth: String? = nil) async throws -> SMTPListener {
        let directory = try MailTestPaths.makeTemporaryDirectory()
        let output = directory.appendingPathComponent("stdout")
        let errors = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)

        var arguments = [
            "python3", MailTestPaths.listenerScript, "--port", "0",
            "--maildir", directory.appendingPathComponent("maildir").path,
        ]
        if let certificate { arguments += ["--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath] }
        if let auth { arguments += ["--auth", auth] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()

        // Polls the READY line from a file, so no test-pool thread blocks on a pipe.
        for _ in 0..<500 {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first, line.hasPrefix("READY "), let port = Int(line.dropFirst(6)) {
                return SMTPListener(port: port, directory: directory, process: process)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        throw StartFailure(description: "smtp-listener.py did not print READY: \(log)")
    }

    /// The stored messages' paths, oldest first (names start with a nanosecond timestamp).
    func messageFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: maildir.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted().map { maildir.appendingPathComponent($0) }
    }

    /// The stored messages' raw text, oldest first, each starting with its X-Envelope lines.
    func messages() -> [String] {
        messageFiles().compactMap { try? String(contentsOf: $0, encoding: .utf8) }
    }

    /// The first stored message whose envelope names `recipient`, polling until `timeout`.
    func waitForMessage(to recipient: String, timeout: Duration = .seconds(3)) async throws -> URL? {
        let deadline = ContinuousClock.now + timeout
        repeat {
            for file in messageFiles() {
                let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
                let envelope = text.split(separator: "\r\n").first { $0.hasPrefix("X-Envelope-To: ") }
                if envelope?.dropFirst("X-Envelope-To: ".count).split(separator: ", ").contains(Substring(recipient)) == true {
                    return file
                }
            }
            try await Task.sleep(for: .milliseconds(25))
        } while ContinuousClock.now < deadline
        return nil
    }

    func stop() {
        if process.isRunning { process.terminate() }
    }

    /// True until the listener process has exited.
    var isRunning: Bool { process.isRunning }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
