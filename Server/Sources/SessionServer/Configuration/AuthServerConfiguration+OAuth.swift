import Foundation

extension AuthServerConfiguration {
    /// Resolves OAuth settings from flags, else the environment:
    /// - `AUTH_SERVER_REDIRECT_ALLOW_LIST`: comma-separated ``RedirectAllowList`` entries;
    /// - `AUTH_SERVER_EXTERNAL_URL`: this server's public root (builds the provider callback);
    /// - `AUTH_SERVER_OAUTH_PROVIDERS`: a JSON file with an array of providers;
    /// - `AUTH_SERVER_OAUTH_STRAVA_CLIENT_ID` and `_CLIENT_SECRET` (and optional
    ///   `_SCOPES`, comma-separated): enable the Strava preset;
    /// - `AUTH_SERVER_OAUTH_<NAME>_CLIENT_ID` / `_CLIENT_SECRET`: credentials of the
    ///   file's provider `<name>`, so secrets need not sit in the file.
    ///
    /// - Throws: ``ConfigurationError`` naming what is not usable.
    mutating func resolveOAuth(_ flags: ConfigurationOverrides, environment: [String: String]) throws {
        if let list = flags.redirectAllowList ?? environment["AUTH_SERVER_REDIRECT_ALLOW_LIST"] {
            redirectAllowList = try RedirectAllowList(commaSeparated: list)
        }
        if let text = flags.externalURL ?? environment["AUTH_SERVER_EXTERNAL_URL"] {
            guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw ConfigurationError("The external URL must be an absolute http(s) URL, got '\(text.prefix(100))'.")
            }
            externalURL = url
        }
        var providers: [OAuthProviderConfiguration] = []
        if let path = flags.oauthProvidersFile ?? environment["AUTH_SERVER_OAUTH_PROVIDERS"] {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ConfigurationError("The OAuth providers file '\(path)' cannot be read.")
            }
            do {
                providers = try JSONDecoder().decode([OAuthProviderConfiguration].self, from: data)
            } catch {
                throw ConfigurationError("The OAuth providers file '\(path)' is not a JSON array of providers: \(Self.describe(error)).")
            }
        }
        let stravaID = environment["AUTH_SERVER_OAUTH_STRAVA_CLIENT_ID"]
        let stravaSecret = environment["AUTH_SERVER_OAUTH_STRAVA_CLIENT_SECRET"]
        if stravaID != nil || stravaSecret != nil, !providers.contains(where: { $0.name == "strava" }) {
            var strava = OAuthProviderConfiguration.strava(clientID: "", clientSecret: "")
            if let scopes = environment["AUTH_SERVER_OAUTH_STRAVA_SCOPES"] {
                strava.scopes = scopes.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
            providers.append(strava)
        }
        for index in providers.indices {
            let prefix = "AUTH_SERVER_OAUTH_\(providers[index].name.uppercased().replacingOccurrences(of: "-", with: "_"))"
            if let id = environment["\(prefix)_CLIENT_ID"] { providers[index].clientID = id }
            if let secret = environment["\(prefix)_CLIENT_SECRET"] { providers[index].clientSecret = secret }
            try providers[index].validate()
        }
        if Set(providers.map(\.name)).count != providers.count {
            throw ConfigurationError("Two OAuth providers have the same name.")
        }
        if !providers.isEmpty { oauthProviders = providers }
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not valid JSON" }
        switch error {
        case .keyNotFound(let key, _): return "\(key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "not valid JSON" : "\(path) is not valid"
        @unknown default: return "not valid JSON"
        }
    }
}
