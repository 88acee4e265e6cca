import Crypto
import Foundation
import HTTPTypes

/// Who may read `/metrics`: they name users' activity and the server's
/// internals, so not the whole internet.
///
/// With a token (`AUTH_SERVER_METRICS_TOKEN`, in the environment so it never
/// shows in a process list), a scraper sends `Authorization: Bearer TOKEN`
/// from anywhere. Without one, only a loopback peer whose request was not
/// forwarded (no `X-Forwarded-For` or `Forwarded`) is answered: a scraper on
/// the same host, never a visitor through a reverse proxy on it.
struct MetricsAccess: Sendable {
    enum Decision: Equatable, Sendable {
        case allowed
        /// 401: the token is required and was missing or wrong.
        case needsToken
        /// 403: no token is configured and the request is not a local, unforwarded one.
        case notLocal
    }

    let token: String?

    func decide(headers: HTTPFields, peer: String?) -> Decision {
        if let token {
            let presented = headers[.authorization].flatMap { value -> String? in
                let parts = value.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
                return String(parts[1])
            }
            guard let presented, Self.sameSecret(presented, token) else { return .needsToken }
            return .allowed
        }
        let forwarded = headers[HTTPField.Name("X-Forwarded-For")!] != nil || headers[HTTPField.Name("Forwarded")!] != nil
        guard !forwarded, let peer = peer.flatMap(IPAddress.init), Self.loopback.contains(where: { $0.contains(peer) }) else {
            return .notLocal
        }
        return .allowed
    }

    private static let loopback = [IPRange("127.0.0.0/8")!, IPRange("::1")!]

    /// Compares digests, so the time taken says nothing about the token.
    private static func sameSecret(_ a: String, _ b: String) -> Bool {
        Data(SHA256.hash(data: Data(a.utf8))) == Data(SHA256.hash(data: Data(b.utf8)))
    }
}
