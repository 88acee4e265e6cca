/// Why a DPoP proof (RFC 9449) was refused, in words a client developer can act on.
///
/// A struct with a private kind, so refusals can be added without breaking
/// callers; ``reason`` is the short label metrics count it under. Foundation
/// alone: the parser that throws it is fuzzed (Fuzz/DPoPProofFuzz.swift).
public struct DPoPError: Error, Sendable, Hashable, CustomStringConvertible {
    enum Kind: String, Sendable, Hashable {
        case missing, multiple, malformed, type, algorithm, key, signature
        case method, url, issuedAt, replayed, accessTokenHash, keyMismatch, nonce
    }

    let kind: Kind
    /// What is wrong and what to do, safe to send back (never a token or key).
    public let message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The metric label: `missing`, `malformed`, `signature`, `htu`…
    public var reason: String {
        switch kind {
        case .method: "htm"
        case .url: "htu"
        case .issuedAt: "iat"
        case .replayed: "jti"
        case .accessTokenHash: "ath"
        case .keyMismatch: "key_mismatch"
        case .type: "typ"
        case .algorithm: "alg"
        case .key: "jwk"
        default: kind.rawValue
        }
    }

    /// The OAuth `error` and GoTrue `error_code` it is answered with: `use_dpop_nonce`
    /// for a missing or stale server nonce (the client retries with the nonce it is
    /// handed), `invalid_dpop_proof` for everything else (RFC 9449 §8, §7.1).
    public var code: String { kind == .nonce ? "use_dpop_nonce" : "invalid_dpop_proof" }

    public var description: String { "DPoPError.\(kind.rawValue): \(message)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// No `DPoP` header where one is needed (a bound session or token, or `--require-dpop`).
    public static let missing = DPoPError(.missing, "A DPoP proof is required: send a DPoP header signed by the session's key.")
    /// More than one `DPoP` header (RFC 9449 §4.3, check 1).
    public static let multiple = DPoPError(.multiple, "Send exactly one DPoP header.")
    /// Not a compact JWS, or its segments are not base64url JSON of the right shape.
    static func malformed(_ detail: String) -> DPoPError {
        DPoPError(.malformed, "The DPoP proof is malformed: \(detail).")
    }
    /// `typ` is not `dpop+jwt`.
    public static let wrongType = DPoPError(.type, "The DPoP proof's typ must be dpop+jwt.")
    /// Any `alg` but ES256 (`none`, HS256, RS256…).
    public static let unsupportedAlgorithm = DPoPError(.algorithm, "The DPoP proof must be signed with ES256.")
    /// The `jwk` is not a public P-256 key (or carries the private `d`).
    static func badKey(_ detail: String) -> DPoPError {
        DPoPError(.key, "The DPoP proof's jwk is not accepted: \(detail).")
    }
    /// The signature does not verify with the proof's own `jwk`.
    public static let badSignature = DPoPError(.signature, "The DPoP proof's signature does not verify with its jwk.")
    /// `htm` is not the request's method.
    public static let wrongMethod = DPoPError(.method, "The DPoP proof's htm is not this request's method.")
    /// `htu` is not this request's URL (scheme, host, port and path; no query).
    public static let wrongURL = DPoPError(.url, "The DPoP proof's htu is not this request's URL (scheme://host[:port]/path).")
    /// `iat` is more than 300 s behind or 60 s ahead of the server's clock.
    public static let issuedOutsideWindow = DPoPError(
        .issuedAt, "The DPoP proof's iat is outside the accepted window: compute it from the server's clock (its Date header).")
    /// The `jti` was already used with this key within the window.
    public static let replayed = DPoPError(.replayed, "The DPoP proof was already used: make a new proof (new jti) for every request.")
    /// `ath` is missing or is not the hash of the access token sent with it.
    public static let wrongAccessTokenHash = DPoPError(
        .accessTokenHash, "The DPoP proof's ath is missing or is not the SHA-256 of this access token.")
    /// A valid proof, by another key than the one the session or token is bound to.
    public static let keyMismatch = DPoPError(
        .keyMismatch, "The DPoP proof is signed by another key than the one this session is bound to.")
    /// Nonces are on (`--dpop-nonce`) and the proof has none, or one that is not current:
    /// not an attack, the client's cue to retry with the `DPoP-Nonce` header's value.
    public static let useNonce = DPoPError(
        .nonce, "This server needs a nonce in the DPoP proof: make a new proof with the DPoP-Nonce header's value as its nonce.")
}
