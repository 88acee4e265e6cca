import Crypto
import Foundation
import HTTPTypes
import SessionCore

/// A client's DPoP key, building RFC 9449 proofs by hand for the tests
/// (the interop test uses Python's `cryptography` instead: Server/Tests/Acceptance/dpop_interop.py).
struct DPoPTestKey: Sendable {
    let privateKey = P256.Signing.PrivateKey()

    var x: String { Base64URL.encode(privateKey.publicKey.rawRepresentation.prefix(32)) }
    var y: String { Base64URL.encode(privateKey.publicKey.rawRepresentation.suffix(32)) }

    /// RFC 7638, computed independently of the server's code.
    var thumbprint: String {
        Base64URL.encode(Data(SHA256.hash(data: Data(#"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#.utf8))))
    }

    /// A proof; every part can be overridden to build an attack.
    func proof(
        _ method: String = "POST", url: String = "http://localhost/auth/v1/token", iat: Int,
        accessToken: String? = nil, jti: String = UUID().uuidString, alg: String = "ES256", typ: String = "dpop+jwt",
        extraJWK: String = "", ath: String? = nil, nonce: String? = nil
    ) -> String {
        let jwk = #"{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(y)"\#(extraJWK)}"#
        let header = #"{"typ":"\#(typ)","alg":"\#(alg)","jwk":\#(jwk)}"#
        var payload = #"{"jti":"\#(jti)","htm":"\#(method)","htu":"\#(url)","iat":\#(iat)"#
        if let hash = ath ?? accessToken.map({ Base64URL.encode(Data(SHA256.hash(data: Data($0.utf8)))) }) {
            payload += #","ath":"\#(hash)""#
        }
        if let nonce { payload += #","nonce":"\#(nonce)""# }
        payload += "}"
        let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8))
        let signature = (try? privateKey.signature(for: Data(input.utf8)).rawRepresentation) ?? Data()
        return input + "." + Base64URL.encode(signature)
    }

    /// Headers carrying one proof.
    func headers(_ proof: String) -> HTTPFields {
        [HTTPField.Name("DPoP")!: proof]
    }
}
