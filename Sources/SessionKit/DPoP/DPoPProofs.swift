import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Makes the proofs of one ``SessionClient``: the installation's key, loaded
/// once, and the latest `DPoP-Nonce` of each server origin.
///
/// Read from `send`'s path beside the actor as well as from the actor, so it
/// is a lock-guarded class like ``TokenSnapshot`` rather than actor state: a
/// proof needs no executor hop of its own (docs/PROTOCOL.md, "Proofs").
final class DPoPProofs: @unchecked Sendable {
    /// Why no proof could be made.
    enum Failure: Error, Sendable, Equatable {
        /// The session is bound and its key is gone (a new device, a Keychain reset): it can never be used here again.
        case keyLost
        /// The key cannot be used right now (locked device, busy Secure Enclave): transient.
        case unavailable(String)
    }

    let keyStore: any DPoPKeyStore
    /// The key with the header of every proof it signs (its public JWK), encoded once when the key is first read.
    private struct KeptKey {
        let key: any DPoPSigningKey
        let encodedHeader: String
    }

    // `@unchecked Sendable`: `key` and `nonces` are only touched under `lock`.
    private let lock = NSLock()
    private var key: KeptKey?
    private var nonces: [String: String] = [:]

    init(configuration: DPoPConfiguration) {
        keyStore = configuration.keyStore
    }

    /// A fresh proof for `request` (new `jti`, its own `htm` and `htu`).
    ///
    /// - Parameters:
    ///   - accessToken: the token the request carries (then `ath` is set), nil on token requests.
    ///   - bound: the session the request serves is bound: a missing key is then ``Failure/keyLost``,
    ///     never replaced (a new key could only be refused, and would hide the loss).
    ///   - serverNow: the client's estimate of the server's clock (docs/PROTOCOL.md, "The server's clock").
    func proof(for request: URLRequest, accessToken: String?, bound: Bool, serverNow: Date) -> Result<String, Failure> {
        // One parse of the URL for `htu` and the nonce's origin.
        guard let target = DPoPProof.target(of: request.url) else {
            return .failure(.unavailable("the request has no absolute URL"))
        }
        let key: KeptKey
        switch signingKey(creatingIfMissing: !bound) {
        case .success(let found): key = found
        case .failure(let failure): return .failure(failure)
        }
        let proof = DPoPProof(
            method: request.httpMethod ?? "GET", url: target.htu, issuedAt: serverNow, accessToken: accessToken,
            nonce: lock.withLock { nonces[target.origin] })
        do {
            return .success(try proof.signed(by: key.key, encodedHeader: key.encodedHeader))
        } catch {
            return .failure(.unavailable(error.detail))
        }
    }

    /// Whether the bound session's key is still here: `.success(false)` means lost.
    func keyIsPresent() -> Result<Bool, Failure> {
        switch signingKey(creatingIfMissing: false) {
        case .success: .success(true)
        case .failure(.keyLost): .success(false)
        case .failure(let failure): .failure(failure)
        }
    }

    /// Keeps the `DPoP-Nonce` of an answer from `url`'s origin (the latest wins).
    func noteNonce(of response: HTTPURLResponse, from url: URL?) {
        guard let nonce = response.value(forHTTPHeaderField: "DPoP-Nonce"), !nonce.isEmpty, nonce.count <= 512,
            let origin = Self.origin(of: url)
        else { return }
        lock.withLock { nonces[origin] = nonce }
    }

    func nonce(for url: URL?) -> String? {
        guard let origin = Self.origin(of: url) else { return nil }
        return lock.withLock { nonces[origin] }
    }

    /// The key kept in memory, else the store's (made when missing and allowed).
    ///
    /// Only the first read asks the store: a key this process has signed with
    /// stays usable while it runs, so `keyLost` is decided at that read (and
    /// by ``keyIsPresent()`` at launch, before any proof), not per request.
    private func signingKey(creatingIfMissing: Bool) -> Result<KeptKey, Failure> {
        if let key = lock.withLock({ key }) { return .success(key) }
        do {
            // Two callers may both miss the cache; the store's own answer decides, and the first key kept wins below.
            let found: any DPoPSigningKey
            if let existing = try keyStore.existingKey() {
                found = existing
            } else if creatingIfMissing {
                found = try keyStore.createKey()
            } else {
                return .failure(.keyLost)
            }
            let kept = KeptKey(key: found, encodedHeader: try DPoPProof.encodedHeader(of: found))
            return .success(lock.withLock { () -> KeptKey in
                if let key { return key }
                key = kept
                return kept
            })
        } catch {
            return .failure(.unavailable(error.detail))
        }
    }

    private static func origin(of url: URL?) -> String? { DPoPProof.origin(of: url) }
}
