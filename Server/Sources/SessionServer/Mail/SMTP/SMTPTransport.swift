import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// Sends each message over a fresh SMTP connection (mail from an auth server is rare,
/// so a pool would only add idle connections for servers to time out).
public struct SMTPTransport: MailTransport {
    public let configuration: SMTPConfiguration
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger

    public init(
        configuration: SMTPConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger
    ) {
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Delivers `message` to the configured server. Throws ``MailError`` (check
    /// ``MailError/isTransient`` to decide on a retry), or `CancellationError` if the task is cancelled.
    public func send(_ message: MailMessage) async throws {
        let host = configuration.host
        let metadata: Logger.Metadata = ["smtp.host": "\(host)", "smtp.recipients": "1"]
        do {
            try configuration.validate()
            let tls = try makeTLSContext()
            let data = message.rendered(date: Date(), messageID: "\(UUID().uuidString.lowercased())@\(message.from.domain)")
            let connection = try await SMTPConnection.open(
                host: host, port: configuration.port, timeout: configuration.timeout,
                implicitTLS: configuration.security == .implicitTLS ? tls : nil,
                group: eventLoopGroup, logger: logger
            )
            do {
                let session = SMTPSession(connection: connection, configuration: configuration, tls: tls)
                // Cancellation ends the pending read (the reply stream finishes), so no handler is needed.
                try await session.deliver(from: message.from.address, to: [message.to.address], data: data)
                await connection.close()
            } catch {
                await connection.close()
                throw error
            }
            logger.info("mail sent", metadata: metadata)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            let mailError = error as? MailError ?? .connectionFailed(host: host, "\(error)")
            var failure = metadata
            failure["smtp.error"] = "\(mailError.kind)"
            if let code = mailError.replyCode { failure["smtp.code"] = "\(code)" }
            logger.notice("mail not sent", metadata: failure)
            throw mailError
        }
    }

    /// Built per send: it reads the trust roots from disk, and sends are rare.
    private func makeTLSContext() throws(MailError) -> NIOSSLContext? {
        guard configuration.security != .none else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let path = configuration.trustRootsPEMFile {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw .invalidConfiguration("trustRootsPEMFile '\(path)' cannot be read")
            }
            tls.additionalTrustRoots = [.file(path)]
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw .invalidConfiguration("TLS could not be set up (check trustRootsPEMFile): \(error)")
        }
    }
}
