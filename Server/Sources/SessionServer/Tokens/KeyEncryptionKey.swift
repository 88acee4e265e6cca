import Crypto
import Foundation

/// The key that seals signing keys at rest (AES-256-GCM), kept outside the
/// database: a copy of the database alone cannot sign tokens.
///
/// A sealed key is stored as `sealed:v1:<kek id>:<base64 nonce‖ciphertext‖tag>`,
/// with the key's `kid` as associated data, so a sealed key moved to another
/// row does not open. The KEK id (a fingerprint, not the key) lets a wrong KEK
/// be named at start-up instead of failing as "corrupt".
public struct KeyEncryptionKey: Sendable {
    let key: SymmetricKey
    /// The first 8 hex digits of SHA-256 of the key: safe to store and to log.
    public let id: String
    /// True for the key built into every `auth-server` binary (no KEK configured).
    public let isEmbeddedDefault: Bool

    static let prefix = "sealed:v1:"

    /// - Throws: ``KeyEncryptionError/badKeyMaterial(_:)`` unless `rawValue` is 32 bytes.
    public init(rawValue: Data) throws {
        try self.init(rawValue: rawValue, isEmbeddedDefault: false)
    }

    private init(rawValue: Data, isEmbeddedDefault: Bool) throws {
        guard rawValue.count == 32 else {
            throw KeyEncryptionError.badKeyMaterial("it must be 32 bytes, got \(rawValue.count)")
        }
        self.key = SymmetricKey(data: rawValue)
        self.id = SHA256Hex.hex(SHA256.hash(data: rawValue).prefix(4))
        self.isEmbeddedDefault = isEmbeddedDefault
    }

    /// A KEK written as base64 (`openssl rand -base64 32`), surrounding whitespace ignored.
    public init(base64 text: String) throws {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw KeyEncryptionError.badKeyMaterial("it is not base64 (make one with `openssl rand -base64 32`)")
        }
        try self.init(rawValue: data)
    }

    /// The KEK in `path`: base64 text, or the 32 raw bytes.
    public init(file path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw KeyEncryptionError.badKeyMaterial("the file \(path) cannot be read")
        }
        if data.count == 32 {
            try self.init(rawValue: data)
        } else {
            try self.init(base64: String(decoding: data, as: UTF8.self))
        }
    }

    /// The key every binary has: better than plaintext PEMs in the database, no
    /// better against someone who also has the binary. The server warns when it runs on it.
    public static let embeddedDefault: KeyEncryptionKey = {
        let material = Data(SHA256.hash(data: Data("sessionkit embedded default key-encryption key v1".utf8)))
        do {
            return try KeyEncryptionKey(rawValue: material, isEmbeddedDefault: true)
        } catch {
            preconditionFailure("SHA-256 gives 32 bytes")
        }
    }()

    /// Seals `pem`, bound to `kid`.
    func seal(pem: String, kid: String) throws -> String {
        let box = try AES.GCM.seal(Data(pem.utf8), using: key, authenticating: Data(kid.utf8))
        guard let combined = box.combined else { throw KeyEncryptionError.corrupt(kid: kid) }
        return Self.prefix + id + ":" + combined.base64EncodedString()
    }

    /// The PEM inside `stored`, sealed for `kid` under this key.
    ///
    /// - Throws: ``KeyEncryptionError/wrongKey(kid:sealedUnder:)`` when another KEK sealed it,
    ///   ``KeyEncryptionError/corrupt(kid:)`` when it does not open.
    func open(_ stored: String, kid: String) throws -> String {
        guard let (sealedUnder, payload) = Self.parse(stored) else { throw KeyEncryptionError.corrupt(kid: kid) }
        guard sealedUnder == id else { throw KeyEncryptionError.wrongKey(kid: kid, sealedUnder: sealedUnder) }
        do {
            guard let combined = Data(base64Encoded: String(payload)) else { throw KeyEncryptionError.corrupt(kid: kid) }
            let box = try AES.GCM.SealedBox(combined: combined)
            return String(decoding: try AES.GCM.open(box, using: key, authenticating: Data(kid.utf8)), as: UTF8.self)
        } catch {
            throw KeyEncryptionError.corrupt(kid: kid)
        }
    }

    /// The KEK id a stored value was sealed under; `nil` for a plaintext PEM (written before sealing existed).
    static func sealedUnder(_ stored: String) -> String? {
        parse(stored)?.kekID
    }

    private static func parse(_ stored: String) -> (kekID: String, payload: Substring)? {
        guard stored.hasPrefix(prefix) else { return nil }
        let rest = stored.dropFirst(prefix.count)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        return (String(rest[..<colon]), rest[rest.index(after: colon)...])
    }
}

/// Why a signing key could not be sealed or opened.
public struct KeyEncryptionError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    /// The configured KEK is unusable.
    public static func badKeyMaterial(_ why: String) -> KeyEncryptionError {
        KeyEncryptionError(description: "The key-encryption key is not usable: \(why).")
    }
    /// The key was sealed under another KEK than the configured one.
    public static func wrongKey(kid: String, sealedUnder: String) -> KeyEncryptionError {
        KeyEncryptionError(
            description: "Signing key \(kid) is sealed under key-encryption key \(sealedUnder), not the configured one. "
                + "Start with the key-encryption key this database was sealed with.")
    }
    /// The sealed key does not open (altered, truncated, or moved to another kid).
    public static func corrupt(kid: String) -> KeyEncryptionError {
        KeyEncryptionError(description: "Signing key \(kid) does not open: its stored value was altered.")
    }
}
