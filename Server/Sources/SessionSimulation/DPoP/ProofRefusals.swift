import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionServer

/// The server's refusals of a device's DPoP proofs for their `iat` (issue 43,
/// item 11), as its answers say them: a proof is refused for the client's own
/// clock when the process that signed it knew the server's clock. A first
/// guess before any `Date` (a launch after a clock change, a server that
/// sends none) may be refused; the SDK then retries once with the refusal's
/// `Date` (docs/DPOP.md), so such a refusal is counted, not charged.
final class ProofRefusals: @unchecked Sendable {
    // `@unchecked`: the counts are touched under `lock` only (every process's transport reaches them).
    private let lock = NSLock()
    private var all = 0
    private var whileKnown = 0

    /// The server's words for a proof outside its `iat` window, in the 400 body or the 401's `WWW-Authenticate`.
    static let refusalText = DPoPError.issuedOutsideWindow.message

    /// Whether `answer` is the server refusing a proof for its `iat`.
    static func isIATRefusal(_ answer: (Data, HTTPURLResponse)) -> Bool {
        let (body, response) = answer
        guard response.statusCode == 400 || response.statusCode == 401 else { return false }
        if String(decoding: body, as: UTF8.self).contains(refusalText) { return true }
        return response.value(forHTTPHeaderField: "WWW-Authenticate")?.contains(refusalText) == true
    }

    /// The `iat` a request's proof claims, for the trace; nil when unreadable.
    static func issuedAt(_ request: URLRequest) -> Date? {
        guard let proof = request.value(forHTTPHeaderField: "DPoP") else { return nil }
        let parts = proof.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let data = Data(base64Encoded: payload),
            let claims = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],  // trace only: nothing rides on it
            let iat = claims["iat"] as? Double
        else { return nil }
        return Date(timeIntervalSince1970: iat)
    }

    /// Counts one refusal; `known`: the signing process knew the server's clock.
    func refused(whileKnown known: Bool) {
        lock.withLock {
            all += 1
            if known { whileKnown += 1 }
        }
    }

    var counts: (all: Int, whileKnown: Int) { lock.withLock { (all, whileKnown) } }
}
