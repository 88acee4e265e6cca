import Foundation

/// One OAuth 2.0 authorization-code provider the server signs people in with.
///
/// The server sends the person to ``authorizeURL``, exchanges the code at
/// ``tokenURL`` with the client secret, and reads the account id from the
/// token response (``accountIDField``, a dotted path such as `athlete.id`)
/// or, when ``userInfoURL`` is set, from that endpoint's JSON. Decodes from
/// the JSON file given to `auth-server serve --oauth-providers` (snake_case keys).
public struct OAuthProviderConfiguration: Sendable, Hashable, Codable {
    /// The name apps pass as `provider=` (lowercase letters, digits, `-`, `_`).
    public var name: String
    public var authorizeURL: URL
    public var tokenURL: URL
    /// Optional endpoint returning the account as JSON, called with the provider's access token.
    public var userInfoURL: URL?
    /// Dotted path of the account id in the token response (or in the user-info body when ``userInfoURL`` is set).
    public var accountIDField: String
    /// Dotted path of an object describing the account (`athlete` for Strava), kept as identity data.
    public var profileField: String?
    public var clientID: String
    public var clientSecret: String
    /// Scopes asked for when the app names none.
    public var scopes: [String]
    /// How the provider joins scopes: Strava uses `,`, most providers a space.
    public var scopeSeparator: String
    /// Extra query items on the authorize URL (Strava's `approval_prompt=auto`).
    public var authorizeParameters: [String: String]

    public init(
        name: String, authorizeURL: URL, tokenURL: URL, userInfoURL: URL? = nil, accountIDField: String,
        profileField: String? = nil, clientID: String, clientSecret: String, scopes: [String] = [],
        scopeSeparator: String = " ", authorizeParameters: [String: String] = [:]
    ) {
        self.name = name
        self.authorizeURL = authorizeURL
        self.tokenURL = tokenURL
        self.userInfoURL = userInfoURL
        self.accountIDField = accountIDField
        self.profileField = profileField
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scopes = scopes
        self.scopeSeparator = scopeSeparator
        self.authorizeParameters = authorizeParameters
    }

    /// Strava, as documented at developers.strava.com: the athlete id comes in
    /// the token response (`athlete.id`), scopes are comma-separated, and
    /// `approval_prompt=auto` skips the consent screen for returning athletes.
    public static func strava(
        clientID: String, clientSecret: String, scopes: [String] = ["read", "activity:read"],
        authorizeURL: URL = URL(string: "https://www.strava.com/oauth/authorize")!,
        tokenURL: URL = URL(string: "https://www.strava.com/oauth/token")!
    ) -> OAuthProviderConfiguration {
        OAuthProviderConfiguration(
            name: "strava", authorizeURL: authorizeURL, tokenURL: tokenURL, accountIDField: "athlete.id",
            profileField: "athlete", clientID: clientID, clientSecret: clientSecret, scopes: scopes,
            scopeSeparator: ",", authorizeParameters: ["approval_prompt": "auto"])
    }

    /// Checks what a configuration file or the environment cannot be trusted to get right.
    ///
    /// - Throws: ``ConfigurationError`` naming the provider and the field.
    public func validate() throws {
        guard !name.isEmpty, name.count <= 40,
            name.unicodeScalars.allSatisfy({ CharacterSet.lowercaseLetters.contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }),
            name.unicodeScalars.allSatisfy(\.isASCII)
        else {
            throw ConfigurationError("OAuth provider name '\(name.prefix(40))' must be lowercase letters, digits, '-' or '_'.")
        }
        for (field, url) in [("authorize_url", authorizeURL), ("token_url", tokenURL)] + (userInfoURL.map { [("user_info_url", $0)] } ?? []) {
            guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
                throw ConfigurationError("OAuth provider '\(name)': \(field) must be an http(s) URL.")
            }
        }
        guard !accountIDField.isEmpty else { throw ConfigurationError("OAuth provider '\(name)': account_id_field is empty.") }
        guard !clientID.isEmpty else { throw ConfigurationError("OAuth provider '\(name)': client_id is empty.") }
        guard !clientSecret.isEmpty else { throw ConfigurationError("OAuth provider '\(name)': client_secret is empty.") }
    }

    enum CodingKeys: String, CodingKey {
        case name, scopes
        case authorizeURL = "authorize_url"
        case tokenURL = "token_url"
        case userInfoURL = "user_info_url"
        case accountIDField = "account_id_field"
        case profileField = "profile_field"
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case scopeSeparator = "scope_separator"
        case authorizeParameters = "authorize_parameters"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        authorizeURL = try c.decode(URL.self, forKey: .authorizeURL)
        tokenURL = try c.decode(URL.self, forKey: .tokenURL)
        userInfoURL = try c.decodeIfPresent(URL.self, forKey: .userInfoURL)
        accountIDField = try c.decode(String.self, forKey: .accountIDField)
        profileField = try c.decodeIfPresent(String.self, forKey: .profileField)
        // May be left out of the file and given as AUTH_SERVER_OAUTH_<NAME>_CLIENT_ID / _CLIENT_SECRET.
        clientID = try c.decodeIfPresent(String.self, forKey: .clientID) ?? ""
        clientSecret = try c.decodeIfPresent(String.self, forKey: .clientSecret) ?? ""
        scopes = try c.decodeIfPresent([String].self, forKey: .scopes) ?? []
        scopeSeparator = try c.decodeIfPresent(String.self, forKey: .scopeSeparator) ?? " "
        authorizeParameters = try c.decodeIfPresent([String: String].self, forKey: .authorizeParameters) ?? [:]
    }
}

extension OAuthProviderConfiguration: CustomStringConvertible {
    /// Redacted: the client secret never appears in logs.
    public var description: String {
        "OAuthProvider(\(name), authorize: \(authorizeURL.absoluteString), token: \(tokenURL.absoluteString), client_id: \(clientID))"
    }
}
