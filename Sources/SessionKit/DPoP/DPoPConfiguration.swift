import Foundation

/// Turns on DPoP (RFC 9449): every token request and every request the client
/// authorizes carries a proof signed by a key only this installation holds, so
/// a copied refresh token is worthless anywhere else (docs/DPOP.md).
///
/// Off by default (``SessionClientConfiguration/dpop`` is `nil`). A session
/// started with proofs is bound to the key; the server answers `token_type`
/// `DPoP` and the client sends `Authorization: DPoP <token>` from then on. A
/// session signed in before DPoP was turned on is bound by its next refresh.
///
/// ```swift
/// var configuration = SessionClientConfiguration(
///     backend: .goTrue(url: serverURL), store: FileSessionStore(directory: directory))
/// configuration.dpop = DPoPConfiguration(keyStore: .file(directory: directory))  // `.keychain()` on Apple platforms
/// ```
public struct DPoPConfiguration: Sendable {
    /// Where the installation's P-256 key lives: the Secure Enclave or a
    /// `ThisDeviceOnly` Keychain item on Apple platforms, a 0600 file elsewhere.
    public var keyStore: any DPoPKeyStore

    /// - Parameter keyStore: ``keyStore``.
    public init(keyStore: any DPoPKeyStore) {
        self.keyStore = keyStore
    }
}
