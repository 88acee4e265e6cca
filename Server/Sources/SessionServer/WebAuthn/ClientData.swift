import Foundation

/// The client data the browser or the platform signs over
/// (WebAuthn Level 3 §5.8.1, `CollectedClientData`), read from its JSON bytes.
/// The server checks it against what it expects in ``WebAuthnVerifier``.
struct ClientData: Sendable, Hashable, Decodable {
    /// `webauthn.create` or `webauthn.get`.
    var type: String
    /// The challenge, base64url, as the client saw it.
    var challenge: String
    /// The caller's origin: `https://example.com`, or an app's origin the RP lists.
    var origin: String
    /// True when the ceremony ran in a cross-origin frame; this server refuses that.
    var crossOrigin: Bool?

    /// The longest client data accepted: a browser's is a few hundred bytes.
    static let maximumLength = 4096

    /// One decoder for every call, not one made per assertion: the client
    /// data's `JSONDecoder` was a fifth of a passkey verification
    /// (docs/BENCHMARKS.md, "Item 9's figures"). It has no options set,
    /// decoding changes no state and the type is `Sendable`, so sharing it
    /// across requests is safe.
    private static let decoder = JSONDecoder()

    init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= Self.maximumLength else { throw .malformed("client data: longer than 4096 bytes") }
        do {
            self = try Self.decoder.decode(ClientData.self, from: Data(bytes))
        } catch {
            throw .malformed("client data JSON: it needs type, challenge and origin")
        }
    }
}
