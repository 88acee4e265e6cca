import Foundation
import SessionCore

/// An access token's signed payload, read in one `JSONDecoder` decode: the
/// claims the client shares (``JWTClaims``, whose shape stays the client's)
/// and the server's own `aal` and `cnf.jkt`, from a second keyed container
/// of the same decoder.
///
/// It was two decodes of the same bytes, the larger share of the JSON cost on
/// the request path with distinct tokens (docs/BENCHMARKS.md, "Item 3 again").
/// The answers are the two decodes' on every input (`AccessTokenPayloadTests`
/// compares them): the claims decode or the token is refused; `aal` and `cnf`
/// are read as one unit, and if either cannot be read, neither is.
struct AccessTokenPayload: Decodable {
    let claims: JWTClaims
    /// `aal` and `cnf` as read, or `nil` when one of them was not what it must be.
    private let assurance: (aal: String?, cnf: Confirmation?)?

    private enum CodingKeys: String, CodingKey { case aal, cnf }

    init(from decoder: any Decoder) throws {
        // A payload whose claims do not decode is a refused token: this throws.
        claims = try JWTClaims(from: decoder)
        do {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let aal = try container.decodeIfPresent(String.self, forKey: .aal)
            assurance = (aal, try container.decodeIfPresent(Confirmation.self, forKey: .cnf))
        } catch {
            // Never a refusal: an odd `aal` or `cnf` fails closed below, as it always has.
            assurance = nil
        }
    }

    /// `aal` and `cnf.jkt` of `payload`, the bytes this was decoded from.
    ///
    /// A foreign issuer's odd `aal` only means no second factor is proven; a
    /// `cnf` without a string `jkt` binds the token to no key (`""`), which no
    /// proof matches (docs/DPOP.md). When `aal` or `cnf` could not be read,
    /// `aal` is `nil` and the token is bound to no key if `"cnf"` appears in
    /// its bytes at all: fail closed.
    func assurance(payload: Data) -> (aal: String?, jkt: String?) {
        guard let assurance else { return (nil, payload.range(of: Data(#""cnf""#.utf8)) != nil ? "" : nil) }
        return (assurance.aal, assurance.cnf.map { $0.jkt ?? "" })
    }
}
