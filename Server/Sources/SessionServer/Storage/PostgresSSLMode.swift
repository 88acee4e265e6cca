import Foundation
import PostgresNIO

/// libpq's `sslmode`, read from the database URL, with libpq's meanings
/// (https://www.postgresql.org/docs/current/libpq-ssl.html):
///
/// | value | encrypted | server verified |
/// |---|---|---|
/// | `disable` | never | — |
/// | `prefer` (libpq's default) | if the server offers it | no |
/// | `require` | always | no (against `sslrootcert` if one is given, as libpq does) |
/// | `verify-ca` | always | certificate chain |
/// | `verify-full` | always | chain and host name |
///
/// Any other value (a typo such as `verify-fulll`, or libpq's `allow`, which
/// tries plaintext first) is a startup error naming the parameter: nothing
/// falls back to plaintext in silence.
enum PostgresSSLMode: String, CaseIterable, Sendable {
    case disable, prefer, require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"

    /// Reads `sslmode` (absent: `prefer`, as libpq).
    init(parameter: String?) throws(ConfigurationError) {
        guard let parameter else {
            self = .prefer
            return
        }
        guard let mode = Self(rawValue: parameter) else {
            let known = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(
                "The PostgreSQL URL's sslmode=\(parameter) is not one this server knows (\(known)). Fix the URL's sslmode parameter.")
        }
        self = mode
    }

    /// The TLS setting for postgres-nio, trusting `rootCertificate` (a PEM
    /// file, libpq's `sslrootcert`) instead of the system's roots when given.
    func tls(rootCertificate: String?) throws(ConfigurationError) -> PostgresClient.Configuration.TLS {
        if let rootCertificate, !FileManager.default.isReadableFile(atPath: rootCertificate) {
            throw ConfigurationError("The PostgreSQL URL's sslrootcert=\(rootCertificate) cannot be read.")
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let rootCertificate { configuration.trustRoots = .file(rootCertificate) }
        switch self {
        case .disable:
            return .disable
        case .prefer:
            configuration.certificateVerification = .none
            return .prefer(configuration)
        case .require:
            configuration.certificateVerification = rootCertificate == nil ? .none : .noHostnameVerification
            return .require(configuration)
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
            return .require(configuration)
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
            return .require(configuration)
        }
    }
}
