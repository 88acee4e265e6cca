import Foundation
import SessionServer
import Testing

/// A mail transport that keeps what it is given, for tests that read the
/// email a flow sent. `failures` makes the first sends fail with those errors.
final class RecordingMailTransport: MailTransport, Sendable {
    private let inbox = Inbox()
    private let failures: FailureQueue

    init(failures: [MailError] = []) {
        self.failures = FailureQueue(failures)
    }

    /// Every call of ``send(_:)``, failed or not.
    var attempts: Int { get async { await failures.calls } }

    func send(_ message: MailMessage) async throws {
        if let failure = await failures.next() { throw failure }
        inbox.append(message)
    }

    /// The next delivered message; fails the test after `seconds` of real time without one.
    ///
    /// Reads a buffer, not an `AsyncStream`: a reader of an `AsyncStream` that
    /// is cancelled (the timeout of an earlier `next(within:)`) finishes the
    /// stream for good, so every later `next()` failed at once, with mail
    /// waiting (MailBudgetTests' "a spent budget sends nothing, then an
    /// account's code goes out").
    func next(within seconds: Double = 10) async throws -> MailMessage {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if let message = inbox.takeFirst() { return message }
            guard ContinuousClock.now < deadline else {
                throw UnexpectedResponse(description: "no mail was delivered within \(seconds) s")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Delivered mail not yet read, in order.
    ///
    /// `@unchecked Sendable`: the array is only touched under `lock`.
    final class Inbox: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [MailMessage] = []

        func append(_ message: MailMessage) { lock.withLock { messages.append(message) } }

        func takeFirst() -> MailMessage? { lock.withLock { messages.isEmpty ? nil : messages.removeFirst() } }
    }

    actor FailureQueue {
        var failures: [MailError]
        var calls = 0
        init(_ failures: [MailError]) { self.failures = failures }
        func next() -> MailError? {
            calls += 1
            return failures.isEmpty ? nil : failures.removeFirst()
        }
    }
}

extension MailMessage {
    /// The six-digit code in the plain-text body.
    var code: String? {
        text.split(whereSeparator: { !$0.isNumber }).first { $0.count == 6 }.map(String.init)
    }

    /// The email's link (`…/auth/v1/verify?token=…`).
    var link: URL? {
        text.split(whereSeparator: \.isWhitespace).first { $0.contains("/auth/v1/verify?") }.flatMap { URL(string: String($0)) }
    }

    /// The link's `token`.
    var linkToken: String? {
        link.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?.queryItems?.first { $0.name == "token" }?.value
    }
}
