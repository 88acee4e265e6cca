import Crypto
import Foundation
import SessionCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches a JWKS document; a protocol so tests can serve one without a network.
public protocol JWKSFetcher: Sendable {
    /// The JWKS at `url`.
    func fetchJWKS(from url: URL) async throws -> JWKS
}

/// Fetches with URLSession.
public struct URLSessionJWKSFetcher: JWKSFetcher {
    public init() {}

    public func fetchJWKS(from url: URL) async throws -> JWKS {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw ConfigurationError("The JWKS at \(url.absoluteString) did not answer 200.")
        }
        return try JSONDecoder().decode(JWKS.self, from: data)
    }
}

/// Verification keys from a remote JWKS URL (a hosted Supabase project's, say).
///
/// Cached for `cacheLifetime`; an unknown `kid` refetches at once (keys
/// rotate), but at most once per `minimumRefetchInterval` so random kids
/// cannot turn the verifier into a request amplifier.
public actor RemoteJWKSKeySource: VerificationKeySource {
    private let url: URL
    private let fetcher: any JWKSFetcher
    private let clock: any SessionClock
    private let cacheLifetime: TimeInterval
    private let minimumRefetchInterval: TimeInterval
    private var keys: [String: P256.Signing.PublicKey] = [:]
    private var fetchedAt: Date?

    public init(
        url: URL, fetcher: any JWKSFetcher = URLSessionJWKSFetcher(), clock: any SessionClock = SystemClock(),
        cacheLifetime: TimeInterval = 600, minimumRefetchInterval: TimeInterval = 10
    ) {
        self.url = url
        self.fetcher = fetcher
        self.clock = clock
        self.cacheLifetime = cacheLifetime
        self.minimumRefetchInterval = minimumRefetchInterval
    }

    public func verificationKey(kid: String) async throws -> P256.Signing.PublicKey? {
        let now = clock.now
        if let fetchedAt, now.timeIntervalSince(fetchedAt) < cacheLifetime, let key = keys[kid] { return key }
        if let fetchedAt, keys[kid] == nil, now.timeIntervalSince(fetchedAt) < minimumRefetchInterval { return nil }
        let jwks = try await fetcher.fetchJWKS(from: url)
        var fresh: [String: P256.Signing.PublicKey] = [:]
        for jwk in jwks.keys {
            if let kid = jwk.kid, let key = jwk.p256PublicKey { fresh[kid] = key }
        }
        keys = fresh
        fetchedAt = now
        return fresh[kid]
    }
}
