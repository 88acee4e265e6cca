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
    /// The largest JWKS body read: a key set is a few KiB; anything near this is not one.
    public static let maximumBodyBytes = 64 * 1024

    public init() {}

    public func fetchJWKS(from url: URL) async throws -> JWKS {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await URLSession.shared.data(for: request)
        return try Self.decode(data, status: (response as? HTTPURLResponse)?.statusCode, from: url)
    }

    /// Reads an answer: a 200 with a JSON key set no larger than ``maximumBodyBytes``.
    static func decode(_ data: Data, status: Int?, from url: URL) throws -> JWKS {
        guard status == 200 else { throw ConfigurationError("The JWKS at \(url.absoluteString) did not answer 200.") }
        guard data.count <= maximumBodyBytes else {
            throw ConfigurationError("The JWKS at \(url.absoluteString) is larger than \(maximumBodyBytes / 1024) KiB.")
        }
        return try JSONDecoder().decode(JWKS.self, from: data)
    }
}

/// Verification keys from a remote JWKS URL (a hosted Supabase project's, say).
///
/// Cached for `cacheLifetime`; an unknown `kid` refetches at once (keys
/// rotate), but at most once per `minimumRefetchInterval` so random kids
/// cannot turn the verifier into a request amplifier. One fetch at a time:
/// callers that arrive meanwhile wait for it. When a fetch fails, the last
/// good key set keeps verifying for `staleLifetime` more, and the next try
/// waits `minimumRefetchInterval`; with no usable keys at all, verification
/// fails as ``AuthError/verificationKeysUnavailable`` (503, transient), never a 500.
public actor RemoteJWKSKeySource: VerificationKeySource {
    private let url: URL
    private let fetcher: any JWKSFetcher
    private let clock: any SessionClock
    private let cacheLifetime: TimeInterval
    private let minimumRefetchInterval: TimeInterval
    private let staleLifetime: TimeInterval
    /// The last good set, by kid: kept as JWKs, so one source serves ES256
    /// verification and other key types (Apple's RSA keys for ID tokens).
    private var keys: [String: JWK] = [:]
    private var fetchedAt: Date?
    private var failedAt: Date?
    private var inflight: Task<[String: JWK], any Error>?

    public init(
        url: URL, fetcher: any JWKSFetcher = URLSessionJWKSFetcher(), clock: any SessionClock = SystemClock(),
        cacheLifetime: TimeInterval = 600, minimumRefetchInterval: TimeInterval = 10, staleLifetime: TimeInterval = 3600
    ) {
        self.url = url
        self.fetcher = fetcher
        self.clock = clock
        self.cacheLifetime = cacheLifetime
        self.minimumRefetchInterval = minimumRefetchInterval
        self.staleLifetime = staleLifetime
    }

    public func verificationKey(kid: String) async throws -> P256.Signing.PublicKey? {
        try await jwk(kid: kid)?.p256PublicKey
    }

    /// The key `kid` names, as its JWK, under the same caching, single-flight and stale rules.
    public func jwk(kid: String) async throws -> JWK? {
        let now = clock.now
        let age = fetchedAt.map { now.timeIntervalSince($0) }
        if let age, age < cacheLifetime, let key = keys[kid] { return key }
        if let age, keys[kid] == nil, age < minimumRefetchInterval { return nil }
        // Failing lately: answer from what we have rather than asking again on every request.
        if let failedAt, now.timeIntervalSince(failedAt) < minimumRefetchInterval { return try stale(kid, now: now) }
        let task: Task<[String: JWK], any Error>
        if let inflight {
            task = inflight
        } else {
            let fetcher = self.fetcher
            let url = self.url
            task = Task {
                let jwks = try await fetcher.fetchJWKS(from: url)
                var fresh: [String: JWK] = [:]
                for jwk in jwks.keys {
                    if let kid = jwk.kid { fresh[kid] = jwk }
                }
                return fresh
            }
            inflight = task
        }
        do {
            let fresh = try await task.value
            if inflight == task {
                inflight = nil
                keys = fresh
                fetchedAt = now
                failedAt = nil
            }
            return fresh[kid]
        } catch {
            if inflight == task {
                inflight = nil
                failedAt = now
            }
            return try stale(kid, now: now)
        }
    }

    /// `kid` from the last good set while it is within the stale bound.
    private func stale(_ kid: String, now: Date) throws -> JWK? {
        guard let fetchedAt, now.timeIntervalSince(fetchedAt) < cacheLifetime + staleLifetime else {
            throw AuthError.verificationKeysUnavailable
        }
        return keys[kid]
    }
}
