import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import SessionCore

/// The server's ES256 keys, shared by every replica through the database
/// (docs/DESIGN.md, "Signing keys").
///
/// The newest key signs; every key not retired verifies and is served in
/// the JWKS (so after a rotation, tokens signed by the previous key stay
/// valid until they expire). The list is read again on first use after
/// `refreshInterval`, so a rotation or retirement run by another process
/// reaches this one within that bound; an unknown `kid` also triggers a
/// read, at most once a second, so random `kid`s cannot hammer the database.
public actor KeyRing: VerificationKeySource {
    private let store: AuthStore
    private nonisolated let clock: any SessionClock
    /// Seals private keys before they reach the database.
    private let kek: KeyEncryptionKey
    private nonisolated let refreshInterval: TimeInterval
    private let logger: Logger
    /// The list and when it was read, behind a lock rather than in actor
    /// state: every token verified and issued asks for a key, and on a busy
    /// server an actor call (two executor hops, a thread wake-up each) cost
    /// more than the ECDSA work (docs/BENCHMARKS.md, "Where the request's time
    /// goes"). Only the actor writes them, so reloads stay single-flight.
    private nonisolated let state = NIOLockedValueBox<(keys: [SigningKey], lastReload: Date?)>(([], nil))
    private var keys: [SigningKey] {
        get { state.withLockedValue { $0.keys } }
        set { state.withLockedValue { $0.keys = newValue } }
    }
    private var lastReload: Date? {
        get { state.withLockedValue { $0.lastReload } }
        set { state.withLockedValue { $0.lastReload = newValue } }
    }
    /// The read in progress, which concurrent callers share.
    private var reloading: Task<Void, any Error>?

    init(
        store: AuthStore, clock: any SessionClock, kek: KeyEncryptionKey, refreshInterval: TimeInterval = 30,
        logger: Logger = Logger(label: "auth-server.keys")
    ) {
        self.store = store
        self.clock = clock
        self.kek = kek
        self.refreshInterval = refreshInterval
        self.logger = logger
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
        let loaded = try stored.map {
            // A plaintext PEM still loads (a replica that has not sealed yet); sealStoredKeys upgrades it.
            let pem = KeyEncryptionKey.sealedUnder($0.privateKeyPEM) == nil
                ? $0.privateKeyPEM : try kek.open($0.privateKeyPEM, kid: $0.kid)
            return SigningKey(kid: $0.kid, privateKey: try P256.Signing.PrivateKey(pemRepresentation: pem), createdAt: $0.createdAt)
        }
        // Both at once: a reader never sees the new list with the old read time.
        let now = clock.now
        state.withLockedValue { $0 = (loaded, now) }
    }

    /// Reads the list again when it is older than `refreshInterval` (or the
    /// clock stepped back past the last read).
    ///
    /// When the database cannot be read and keys are known, the known keys
    /// keep serving and the read is tried again a second later: a replica
    /// that cannot reach its database fails its requests on the database
    /// anyway, and refusing every token on top of that helps nobody.
    private func ensureFresh() async throws {
        let now = clock.now
        if freshKeys() != nil { return }
        do {
            try await reloadShared()
        } catch where !keys.isEmpty {
            logger.warning(
                "Could not re-read the signing keys; serving the last list read",
                metadata: ["error.type": "\(type(of: error))", "retry_in_seconds": "1"])
            lastReload = now.addingTimeInterval(1 - refreshInterval)
        }
    }

    /// One read of the list, shared by every caller that asks while it runs.
    private func reloadShared() async throws {
        if let reloading { return try await reloading.value }
        let task = Task { try await self.load() }
        reloading = task
        defer { reloading = nil }
        try await task.value
    }

    /// The list, when it was read less than `refreshInterval` ago (and not
    /// in the future: the clock may step back); `nil` means read it again.
    private nonisolated func freshKeys() -> [SigningKey]? {
        let (keys, lastReload) = state.withLockedValue { $0 }
        let now = clock.now
        guard let lastReload, !keys.isEmpty, now >= lastReload, now.timeIntervalSince(lastReload) < refreshInterval else {
            return nil
        }
        return keys
    }

    /// The key that signs new tokens.
    nonisolated func currentKey() async throws -> SigningKey {
        if let key = freshKeys()?.first { return key }
        return try await currentKeyReadingIfStale()
    }

    private func currentKeyReadingIfStale() async throws -> SigningKey {
        try await ensureFresh()
        guard let key = keys.first else { throw AuthError.internalFailure }
        return key
    }

    /// Makes a new signing key current; the key signing until now keeps
    /// verifying, older ones retire. Which key is signing is decided in the
    /// database, not from this replica's list, which may be stale.
    ///
    /// - Returns: the new key's id.
    /// - Parameters: actor, ip: who asked and from where, for the audit log
    ///   (`operator` is the command line; the console names its key).
    @discardableResult
    public func rotate(actor: String = "operator", ip: String? = nil) async throws -> String {
        let key = SigningKey.generate(now: clock.now)
        try await store.rotateSigningKey(try sealedRow(key), now: clock.now, actor: actor, ip: ip)
        try await load()
        return key.kid
    }

    /// Retires a key that only verifies: tokens it signed stop verifying on
    /// every replica within the refresh interval.
    ///
    /// - Returns: `false` when it was already retired.
    /// - Throws: ``KeyManagementError`` for an unknown kid or the signing key.
    @discardableResult
    public func retire(kid: String, actor: String = "operator", ip: String? = nil) async throws -> Bool {
        let retired = try await store.retireSigningKey(kid: kid, now: clock.now, actor: actor, ip: ip)
        try await load()
        return retired
    }

    /// `key` as its database row, sealed.
    private func sealedRow(_ key: SigningKey) throws -> StoredSigningKey {
        StoredSigningKey(
            kid: key.kid, privateKeyPEM: try kek.seal(pem: key.privateKey.pemRepresentation, kid: key.kid),
            createdAt: key.createdAt)
    }

    /// The public keys as a JWKS document.
    public func jwks() async throws -> JWKS {
        try await ensureFresh()
        return JWKS(keys: keys.map(\.jwk))
    }

    /// The kid that signs new tokens now.
    public func currentKeyID() async throws -> String {
        try await currentKey().kid
    }

    public nonisolated func verificationKey(kid: String) async throws -> P256.Signing.PublicKey? {
        // A known kid in a fresh list is the common case; an unknown one may need a read.
        if let key = freshKeys()?.first(where: { $0.kid == kid }) { return key.publicKey }
        return try await verificationKeyReadingIfNeeded(kid: kid)
    }

    private func verificationKeyReadingIfNeeded(kid: String) async throws -> P256.Signing.PublicKey? {
        try await ensureFresh()
        if let key = keys.first(where: { $0.kid == kid }) { return key.publicKey }
        let now = clock.now
        if let lastReload, abs(now.timeIntervalSince(lastReload)) < 1 { return nil }
        try await reloadShared()
        return keys.first { $0.kid == kid }?.publicKey
    }
}
