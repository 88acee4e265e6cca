import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// The error codes of the DPoP wire (docs/DPOP.md, RFC 9449 §7.1 and §8), read as plain strings so
/// the client does not depend on which build of SessionCore names them.
enum DPoPWire {
    /// GoTrue-shaped `error_code` on `/token` and GoTrue routes; also `error="…"` in `WWW-Authenticate: DPoP`.
    static let invalidProof = "invalid_dpop_proof"
    /// The server wants its nonce in the proof: retried once with the `DPoP-Nonce` it sent.
    static let useNonce = "use_dpop_nonce"
    /// The gateway envelope's code for a bound token sent without a valid proof.
    static let proofRequired = "DPOP_PROOF_REQUIRED"
    /// Codes that say "the proof", never "the session": none ends a session.
    static let proofCodes: Set<String> = [invalidProof, useNonce, proofRequired]

    /// True when `response` asks for a proof with the server's nonce: a 400
    /// `use_dpop_nonce` on a token request, or a 401 whose `WWW-Authenticate`
    /// says `error="use_dpop_nonce"` on a resource, with a `DPoP-Nonce` to use.
    static func asksForNonce(_ response: HTTPURLResponse, _ data: Data) -> Bool {
        guard [400, 401].contains(response.statusCode),
            let nonce = response.value(forHTTPHeaderField: "DPoP-Nonce"), !nonce.isEmpty
        else { return false }
        if let challenge = response.value(forHTTPHeaderField: "WWW-Authenticate"), challenge.contains(useNonce) { return true }
        let body = ServerErrorBody.parse(data)
        return [body?.goTrueErrorCode?.rawValue, body?.gatewayCode?.rawValue].contains(useNonce)
    }

    /// True when `response` refuses the proof rather than the token (`invalid_dpop_proof`, `DPOP_PROOF_REQUIRED`).
    static func refusesProof(_ response: HTTPURLResponse, _ data: Data) -> Bool {
        if let challenge = response.value(forHTTPHeaderField: "WWW-Authenticate"),
            challenge.lowercased().hasPrefix("dpop"), challenge.contains(invalidProof)
        {
            return true
        }
        let body = ServerErrorBody.parse(data)
        return [body?.goTrueErrorCode?.rawValue, body?.gatewayCode?.rawValue].contains { $0.map(proofCodes.contains) ?? false }
    }

    /// `Authorization` for `token`: `DPoP` when the session is bound (`token_type` `DPoP`), else `Bearer`.
    static func authorization(_ token: String, bound: Bool) -> String {
        (bound ? "DPoP " : "Bearer ") + token
    }

    /// The token an `Authorization` header carries, with whether its scheme is `DPoP`.
    static func token(inAuthorization header: String?) -> (token: String, bound: Bool)? {
        guard let header, let space = header.firstIndex(of: " ") else { return nil }
        let scheme = header[..<space].lowercased()
        guard scheme == "dpop" || scheme == "bearer" else { return nil }
        return (String(header[header.index(after: space)...]), scheme == "dpop")
    }
}

extension Session {
    /// True when the server bound this session to the installation's key (`token_type` `DPoP`).
    var isProofBound: Bool { tokenType.caseInsensitiveCompare("DPoP") == .orderedSame }
}
