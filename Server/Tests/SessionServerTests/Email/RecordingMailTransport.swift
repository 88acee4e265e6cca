import Foundation
import SessionServer
import Testing

/// A mail transport that keeps what it is given, for tests that read the
/// email a flow sent. `failures` makes the first sends fail with those errors.
final class RecordingMailTransport: MailTransport, Sendable {
    private let stream: AsyncStream<MailMessage>
    private let continuation: AsyncStream<MailMessage>.Continuation
    private let failures: FailureQueue

    init(failures: [MailError] = []) {
        (stream, continuation) = AsyncStream.makeStream(of: MailMessage.self)
        self.failures = FailureQueue(failures)
    }

    /// Every call of ``send(_:)``, failed or not.
    var attempts: Int { get async { await failures.calls } }

    func send(_ message: MailMessage) async throws {
        if let failure = await failures.next() { throw failure }
        continuation.yield(message)
    }

    /// The next delivered message; fails the test after `seconds` of real time without one.
    func next(within seconds: Double = 10) async throws -> MailMessage {
        let stream = self.stream
        return try await withThrowingTaskGroup(of: MailMessage?.self) { group in
            group.addTask {
                for await message in stream { return message }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let message = first else {
                throw UnexpectedResponse(description: "no mail was delivered within \(seconds) s")
            }
            return message
        }
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
