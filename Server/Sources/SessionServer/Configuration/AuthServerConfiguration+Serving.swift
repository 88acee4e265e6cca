import Foundation

extension AuthServerConfiguration {
    /// Why `serve` must not start with this configuration, or `nil`.
    ///
    /// Without a key-encryption key the signing keys are sealed with a key
    /// built into the public source, so a copy of the database mints any
    /// token, service-role included (issue 29). That is refused unless the
    /// server is reachable from this machine only or the operator says
    /// `--insecure-default-key` (docs/ADMIN.md, "The key-encryption key").
    /// Reachable means a host beyond loopback, and also (issue 37, item 5) a
    /// public `--external-url` or any trusted proxy: the common layout of a
    /// proxy on the same host binds to 127.0.0.1 and serves the world.
    public var refusalToServe: ConfigurationError? {
        guard keyEncryptionKey == nil, !insecureDefaultKey, let reason = reachability else { return nil }
        return ConfigurationError(
            """
            No key-encryption key, and \(reason): the signing keys would be \
            sealed with the key built into auth-server, so a copy of the database could mint tokens. Create one \
            (openssl rand -base64 32 > kek && chmod 600 kek) and pass --key-encryption-key-file kek \
            (or AUTH_SERVER_KEY_ENCRYPTION_KEY_FILE); an existing database moves onto it at the next start \
            (docs/ADMIN.md, "The key-encryption key"). To run anyway, pass --insecure-default-key.
            """)
    }

    /// Why other machines reach this server, or `nil` when only this one does.
    private var reachability: String? {
        if !Self.isLoopback(host) { return "--host \(host) is reachable from other machines" }
        if let externalURL, !Self.isLoopback(externalURL.host ?? "") {
            return "--external-url \(externalURL.absoluteString.prefix(100)) serves other machines through a proxy"
        }
        if !trustedProxies.ranges.isEmpty {
            return "--trusted-proxies \(trustedProxies.description.prefix(100)) names a proxy that serves other machines"
        }
        return nil
    }

    /// `localhost`, `127.0.0.0/8` and `::1`: interfaces no other machine reaches.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.lowercased() == "localhost" { return true }
        guard let address = IPAddress(bare) else { return false }
        return IPRange("127.0.0.0/8")?.contains(address) == true || IPRange("::1/128")?.contains(address) == true
    }
}
