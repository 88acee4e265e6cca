import Crypto
import Foundation
import SessionCore

/// The server's ES256 keys, shared by every replica through the database.
///
/// The newest key signs; every key not retired verifies and is served in
/// the JWKS (so after a rotation, tokens signed by the previous key stay
/// valid until they expire). An unknown `kid` triggers a reload, at most once
/// a second, so a key rotated on another replica is picked up without
/// letting random `kid`s hammer the database.
public actor KeyRing: VerificationKeySource {
    private let store: AuthStore
    private let clock: any SessionClock
    private var keys: [SigningKey] = []
    private var lastReload: Date?

    init(store: AuthStore, clock: any SessionClock) {
        self.store = store
        self.clock = clock
    }

    /// Loads the keys, generating and storing the first one on a fresh database.
    public func load() async throws {
        var stored = try await store.activeSigningKeys()
        if stored.isEmpty {
            let key = SigningKey.generate(now: clock.now)
            try await store.insertFirstSigningKey(
                StoredSigningKey(kid: key.kid, privateKeyPEM: key.privateKey.pemRepresentation, createdAt: key.createdAt))
            // Another replica may have won the race; re-read so all agree.
            stored = try await store.activeSigningKeys()
        }
        keys = try stored.map {
            SigningKey(
                kid: $0.kid, privateKey: try P256.Signing.PrivateKey(pemRepresentation: $0.privateKeyPEM),
                createdAt: $0.createdAt)
        }
        lastReload = clock.now
    }

    /// The key that signs new tokens.
    func currentKey() async throws -> SigningKey {
        if keys.isEmpty { try await load() }
        guard let key = keys.first else { throw AuthError.internalFailure }
        return key
    }

    /// Makes a new signing key current; the previous current key keeps verifying, older ones retire.
    ///
    /// - Returns: the new key's id.
    @discardableResult
    public func rotate() async throws -> String {
        if keys.isEmpty { try await load() }
        let key = SigningKey.generate(now: clock.now)
        try await store.insertSigningKey(
            StoredSigningKey(kid: key.kid, privateKeyPEM: key.privateKey.pemRepresentation, createdAt: key.createdAt),
            retireOthersBut: keys.first.map { [$0.kid] } ?? [], now: clock.now)
        try await load()
        return key.kid
    }

    /// The public keys as a JWKS document.
    public func jwks() async throws -> JWKS {
        if keys.isEmpty { try await load() }
        return JWKS(keys: keys.map(\.jwk))
    }

    /// The kid that signs new tokens now.
    public func currentKeyID() async throws -> String {
        try await currentKey().kid
    }

    public func verificationKey(kid: String) async throws -> P256.Signing.PublicKey? {
        if let key = keys.first(where: { $0.kid == kid }) { return key.publicKey }
        let now = clock.now
        if let lastReload, abs(now.timeIntervalSince(lastReload)) < 1 { return nil }
        try await load()
        return keys.first { $0.kid == kid }?.publicKey
    }
}
