// Apple-only and thin: CryptoKit's Secure Enclave key behind the ``SecureEnclaveKeys``
// seam. Everything that decides (which key, what a missing or locked item means)
// lives in ``KeychainDPoPKeyStore`` and is tested on every platform; this file is
// type-checked against the SDK stubs (Tools/AppleSDKStubs). Not on tvOS: Apple's
// pages list no tvOS for creating a Secure Enclave signing key.
#if canImport(CryptoKit) && canImport(Security) && !os(Linux) && !os(tvOS)
import CryptoKit
import Foundation
import Security

/// A P-256 key inside the Secure Enclave
/// (https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey).
/// `@unchecked Sendable`: the struct holds only the key's immutable handle and blob.
struct SecureEnclaveDPoPKey: DPoPSigningKey, @unchecked Sendable {
    let privateKey: SecureEnclave.P256.Signing.PrivateKey

    var publicKeyRawRepresentation: Data { privateKey.publicKey.rawRepresentation }

    func signature(for data: Data) throws(DPoPKeyError) -> Data {
        do {
            return try privateKey.signature(for: data).rawRepresentation
        } catch {
            // The enclave refused now (busy, the device locked): the key is still there.
            throw DPoPKeyError.unavailable.with(detail: "the Secure Enclave did not sign: \(error)")
        }
    }
}

extension SecureEnclaveKeys {
    /// This device's Secure Enclave, or `nil` where it has none (`SecureEnclave.isAvailable`,
    /// https://developer.apple.com/documentation/cryptokit/secureenclave/isavailable).
    public static var system: SecureEnclaveKeys? {
        guard SecureEnclave.isAvailable else { return nil }
        return SecureEnclaveKeys(
            newKey: { () throws(DPoPKeyError) -> (key: any DPoPSigningKey, dataRepresentation: Data) in
                do {
                    // The default access control is `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`
                    // with no flags: usable in the background, never leaves the device
                    // (https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(compactrepresentable:accesscontrol:authenticationcontext:)).
                    let key = try SecureEnclave.P256.Signing.PrivateKey()
                    return (SecureEnclaveDPoPKey(privateKey: key), key.dataRepresentation)
                } catch {
                    throw DPoPKeyError.unavailable.with(detail: "the Secure Enclave did not make a key: \(error)")
                }
            },
            key: { (blob: Data) throws(DPoPKeyError) -> (any DPoPSigningKey)? in
                do {
                    // https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(datarepresentation:authenticationcontext:)
                    return SecureEnclaveDPoPKey(privateKey: try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob))
                } catch {
                    // The blob lives in a `ThisDeviceOnly` item, which never moves to another
                    // device, so a blob this enclave cannot open now is not "another device's
                    // key": ending the session on an error we cannot name would lose it.
                    // Transient; the item's absence (not this) is what says the key is gone.
                    throw DPoPKeyError.unavailable.with(detail: "the Secure Enclave did not open the key: \(error)")
                }
            })
    }
}

#endif

#if canImport(Security)
extension DPoPKeyStore where Self == KeychainDPoPKeyStore {
    /// The Keychain (`ThisDeviceOnly`), with the key in the Secure Enclave where the device has one.
    ///
    /// - Parameter item: the item the key (or its Secure Enclave blob) lives in.
    public static func keychain(item: KeychainItem = KeychainDPoPKeyStore.defaultItem) -> KeychainDPoPKeyStore {
        #if canImport(CryptoKit) && !os(Linux) && !os(tvOS)
        let enclave = SecureEnclaveKeys.system
        #else
        let enclave: SecureEnclaveKeys? = nil
        #endif
        return KeychainDPoPKeyStore(keychain: SecItemKeychain(), item: item, enclave: enclave)
    }
}
#endif
