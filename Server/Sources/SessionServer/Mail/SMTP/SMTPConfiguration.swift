import Foundation

/// Where and how ``SMTPTransport`` delivers mail. Usually made from a URL with ``init(url:)``.
public struct SMTPConfiguration: Sendable, CustomStringConvertible {
    public enum Security: Sendable, Equatable {
        /// Plain TCP upgraded with STARTTLS, which is required: nothing is sent if the server lacks it.
        case startTLS
        /// TLS from the first byte (SMTPS, usually port 465).
        case implicitTLS
        /// No TLS at all: for a relay on loopback only.
        case none
    }

    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    public var security: Security
    /// A PEM file of extra CA certificates trusted besides the system roots (a private CA, or a test's self-signed one).
    public var trustRootsPEMFile: String?
    /// The name given in EHLO/HELO.
    public var heloName: String
    /// The longest wait for the TCP connection and for each server reply. Default 30 seconds.
    public var timeout: Duration

    /// `port` defaults to 465 for implicit TLS and 587 otherwise.
    public init(
        host: String,
        port: Int? = nil,
        security: Security = .startTLS,
        username: String? = nil,
        password: String? = nil,
        trustRootsPEMFile: String? = nil,
        heloName: String = "localhost",
        timeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port ?? (security == .implicitTLS ? 465 : 587)
        self.security = security
        self.username = username
        self.password = password
        self.trustRootsPEMFile = trustRootsPEMFile
        self.heloName = heloName
        self.timeout = timeout
    }

    /// Never shows the password, so the configuration can be logged.
    public var description: String {
        let user = username.map { "\($0)\(password == nil ? "" : ":<redacted>")@" } ?? ""
        return "SMTPConfiguration(\(security), \(user)\(host):\(port), helo \(heloName), timeout \(timeout))"
    }

    /// Whether `host` names this machine: `localhost`, 127.0.0.0/8 or ::1.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: ["[", "]"])
        if name == "localhost" || name == "localhost." || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Refuses settings that would misbehave on the wire, before any connection is made.
    func validate() throws(MailError) {
        guard !host.isEmpty else { throw .invalidConfiguration("the host is empty") }
        guard (1...65535).contains(port) else { throw .invalidConfiguration("port \(port) is out of range") }
        guard !heloName.isEmpty, heloName.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .invalidConfiguration("the HELO name must be a host name without spaces or line breaks")
        }
        guard timeout > .zero else { throw .invalidConfiguration("the timeout must be positive") }
        if username != nil, password == nil { throw .invalidConfiguration("a username is set but no password") }
        if username != nil, security == .none, !Self.isLoopback(host) {
            throw .invalidConfiguration("credentials would cross the network in clear; use STARTTLS or implicit TLS")
        }
    }
}
