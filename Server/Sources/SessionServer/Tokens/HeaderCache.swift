import Foundation
import NIOConcurrencyHelpers
import SessionCore

/// Decoded JOSE headers by their base64url segment.
///
/// A server's tokens carry one header per signing key, byte for byte, so a
/// handful of entries spares nearly every verification a base64 and a JSON
/// decode. Bounded: a flood of made-up headers empties it, and costs each
/// one the decode it would have cost anyway.
final class HeaderCache: Sendable {
    private static let capacity = 16
    private static let decoder = JSONDecoder()
    private let entries = NIOLockedValueBox([Substring: AccessTokenHeader]())

    /// The header `segment` encodes.
    ///
    /// - Throws: what `reject` makes of the reason, when the segment is not base64url JSON.
    func header(of segment: Substring, reject: (String) -> AuthError) throws -> AccessTokenHeader {
        if let known = entries.withLockedValue({ $0[segment] }) { return known }
        guard let data = Base64URL.decode(segment) else { throw reject("token header is not base64url") }
        let header: AccessTokenHeader
        do {
            header = try Self.decoder.decode(AccessTokenHeader.self, from: data)
        } catch {
            throw reject("token header is not valid JSON")
        }
        // A copy, so the entry does not keep the whole token's storage alive.
        let key = Substring(String(segment))
        entries.withLockedValue { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = header
        }
        return header
    }
}
