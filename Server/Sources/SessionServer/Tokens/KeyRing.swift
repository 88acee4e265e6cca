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
    /// Seals private keys before they reach the database.
    private let kek: KeyEncryptionKey
    private var keys: [SigningKey] = []
    private var lastReload: Date?

    init(store: AuthStore, clock: any SessionClock, kek: KeyEncryptionKey) {
        self.store = store
        self.clock = clock
        self.kek = kek
    }

    /// Seals every stored key not yet sealed under this ring's KEK: plaintext
    /// PEMs from before sealing existed, and keys sealed under the embedded
    /// default once an operator configures a real KEK. Retired keys too.
    ///
    /// - Returns: how many keys were sealed now.
    /// - Throws: ``KeyEncryptionError`` when a key is sealed under another KEK.
    @discardableResult
    public func sealStoredKeys() async throws -> Int {
        var sealed = 0
        for (kid, stored) in try await store.signingKeyValues() {
            let pem: String
            let sealedUnder = KeyEncryptionKey.sealedUnder(stored)
            if sealedUnder == kek.id {
                continue
            } else if sealedUnder == nil {
                pem = stored  // A plaintext PEM from an older server.
            } else if sealedUnder == KeyEncryptionKey.embeddedDefault.id {
                // Sealed before the operator configured a KEK: move it under theirs.
                pem = try KeyEncryptionKey.embeddedDefault.open(stored, kid: kid)
            } else {
                throw KeyEncryptionError.wrongKey(kid: kid, sealedUnder: sealedUnder ?? "")
            }
            // Compare-and-set: a replica starting at the same moment seals it once, not twice.
            if try await store.replaceSigningKeyValue(kid: kid, from: stored, to: try kek.seal(pem: pem, kid: kid)) {
                sealed += 1
            }
        }
        return sealed
    }

    /// Loads the keys, generating and storing the first one on a fresh database.
    public func load() async throws {
        var stored = try await store.activeSigningKeys()
        if stored.isEmpty {
            let key = SigningKey.generate(now: clock.now)
            try await store.insertFirstSigningKey(try sealedRow(key))
            // Another replica may have won the race; re-read so all agree.
            stored = try await store.activeSigningKeys()
        }
        keys = try stored.map {
            // A plaintext PEM still loads (a replica that has not sealed yet); sealStoredKeys upgrades it.
            let pem = KeyEncryptionKey.sealedUnder($0.privateKeyPEM) == nil
                ? $0.privateKeyPEM : try kek.open($0.privateKeyPEM, kid: $0.kid)
            return SigningKey(kid: $0.kid, privateKey: try P256.Signing.PrivateKey(pemRepresentation: pem), createdAt: $0.createdAt)
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
            try sealedRow(key),
            retireOthersBut: keys.first.map { [$0.kid] } ?? [], now: clock.now)
        try await load()
        return key.kid
    }

    /// `key` as its database row, sealed.
    private func sealedRow(_ key: SigningKey) throws -> StoredSigningKey {
        StoredSigningKey(
            kid: key.kid, privateKeyPEM: try kek.seal(pem: key.privateKey.pemRepresentation, kid: key.kid),
            createdAt: key.createdAt)
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
