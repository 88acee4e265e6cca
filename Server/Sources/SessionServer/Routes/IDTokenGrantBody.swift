import SessionCore

/// The body of `grant_type=id_token` as GoTrue reads it (`IdTokenGrantParams`,
/// `internal/api/token_oidc.go`): SessionCore's ``IDTokenRequest`` plus
/// `link_identity`, which links the token's account to the bearer's user.
struct IDTokenGrantBody: Sendable, Decodable {
    var provider: String
    var idToken: String
    var nonce: String?
    var linkIdentity: Bool?

    enum CodingKeys: String, CodingKey {
        case provider, nonce
        case idToken = "id_token"
        case linkIdentity = "link_identity"
    }

    var request: IDTokenRequest { IDTokenRequest(provider: provider, idToken: idToken, nonce: nonce) }
}
