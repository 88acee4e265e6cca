/// Why a mail could not be sent, and what to do about it.
///
/// A struct rather than an enum (as Hummingbird's errors are) so kinds can be added
/// without breaking callers that switch over them: compare `kind` instead.
public struct MailError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The category of failure. Its backing enum is private so new kinds are not a breaking change.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case invalidAddress, invalidURL, invalidConfiguration, connectionFailed, timeout
            case tlsUnavailable, tlsFailed, authenticationFailed, rejected, temporaryFailure, protocolViolation
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        public static let invalidAddress = Kind(.invalidAddress)
        public static let invalidURL = Kind(.invalidURL)
        public static let invalidConfiguration = Kind(.invalidConfiguration)
        public static let connectionFailed = Kind(.connectionFailed)
        public static let timeout = Kind(.timeout)
        public static let tlsUnavailable = Kind(.tlsUnavailable)
        public static let tlsFailed = Kind(.tlsFailed)
        public static let authenticationFailed = Kind(.authenticationFailed)
        public static let rejected = Kind(.rejected)
        public static let temporaryFailure = Kind(.temporaryFailure)
        public static let protocolViolation = Kind(.protocolViolation)

        public var description: String { base.rawValue }
    }

    public let kind: Kind
    /// The SMTP reply code, when the failure is the server's answer.
    public let replyCode: Int?
    /// What happened and what to do, in words fit for an operator.
    public let message: String

    private init(_ kind: Kind, replyCode: Int? = nil, _ message: String) {
        self.kind = kind
        self.replyCode = replyCode
        self.message = message
    }

    /// Whether sending the same message later may succeed: the server or network was
    /// temporarily unable (4xx, timeouts, lost connections). Permanent rejections,
    /// bad credentials and configuration mistakes will fail again until someone acts.
    public var isTransient: Bool {
        kind == .temporaryFailure || kind == .timeout || kind == .connectionFailed
    }

    public var description: String {
        if let replyCode { return "mail error (\(kind), reply \(replyCode)): \(message)" }
        return "mail error (\(kind)): \(message)"
    }

    public static func invalidAddress(_ reason: String) -> Self {
        Self(.invalidAddress, "invalid email address: \(reason). Write a plain address such as user@example.com.")
    }

    public static func invalidURL(_ problem: String, instead hint: String) -> Self {
        Self(.invalidURL, "invalid SMTP URL: \(problem). \(hint)")
    }

    public static func invalidConfiguration(_ problem: String) -> Self {
        Self(.invalidConfiguration, "invalid SMTP configuration: \(problem)")
    }

    public static func connectionFailed(host: String, _ reason: String) -> Self {
        Self(.connectionFailed, "connection to SMTP server \(host) failed: \(reason). Check the host and port; retry later.")
    }

    public static func timeout(host: String, waitingFor step: String) -> Self {
        Self(.timeout, "SMTP server \(host) did not answer \(step) in time. Retry later, or raise the timeout.")
    }

    public static func tlsUnavailable(host: String) -> Self {
        Self(
            .tlsUnavailable,
            "SMTP server \(host) does not offer STARTTLS, so nothing was sent. Use smtps:// if it speaks implicit TLS, "
                + "or tls=none only for a relay on loopback."
        )
    }

    public static func tlsFailed(host: String, _ reason: String) -> Self {
        Self(
            .tlsFailed,
            "TLS with SMTP server \(host) failed: \(reason). Check the certificate matches the host name and is trusted "
                + "(set trustRootsPEMFile for a private CA)."
        )
    }

    public static func authenticationFailed(code: Int? = nil, text: String) -> Self {
        Self(.authenticationFailed, replyCode: code, "SMTP authentication failed: \(text). Check the user name and password.")
    }

    /// A permanent (5xx) refusal: sending the same message again will fail the same way.
    public static func rejected(code: Int, text: String) -> Self {
        Self(.rejected, replyCode: code, "SMTP server rejected the message permanently: \(text). Do not retry unchanged.")
    }

    /// A temporary (4xx) refusal: the server asks to try again later.
    public static func temporaryFailure(code: Int, text: String) -> Self {
        Self(.temporaryFailure, replyCode: code, "SMTP server refused for now: \(text). Retry later.")
    }

    public static func protocolViolation(host: String, _ problem: String) -> Self {
        Self(
            .protocolViolation,
            "SMTP server \(host) broke the protocol: \(problem). Check the host and port point at an SMTP server."
        )
    }
}
