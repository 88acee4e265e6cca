/// Sends mail. The auth server holds `any MailTransport` so tests can plant their own.
public protocol MailTransport: Sendable {
    /// Delivers `message` to the next hop; throws ``MailError`` (or `CancellationError`).
    func send(_ message: MailMessage) async throws
}
