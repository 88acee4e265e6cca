import Foundation

/// The installation's DPoP key in the Keychain (Apple platforms): a
/// generic-password item of class `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`,
/// never in a backup restored elsewhere nor in iCloud Keychain.
///
/// Where the Secure Enclave exists (``SecureEnclaveKeys``), the key is made
/// inside it and the item holds only its `dataRepresentation`, a blob only
/// this device's Secure Enclave can use; elsewhere the item holds a software
/// key's 32 bytes. Apple's "Storing CryptoKit Keys in the Keychain"
/// (https://developer.apple.com/documentation/cryptokit/storing-cryptokit-keys-in-the-keychain)
/// stores both kinds this way.
///
/// Keychain answers, as Apple documents them: `errSecItemNotFound` is no key
/// (a new device, a reset keychain); `errSecInteractionNotAllowed` (the
/// device is locked) and every other failure are ``DPoPKeyError/unavailable``,
/// transient (https://developer.apple.com/documentation/security/errsecinteractionnotallowed).
public struct KeychainDPoPKeyStore: DPoPKeyStore {
    /// The item the key lives in.
    public let item: KeychainItem
    let keychain: any KeychainAPI
    let enclave: SecureEnclaveKeys?

    /// Blob prefixes: which kind of key the item holds.
    static let enclaveTag: UInt8 = 0x45  // "E"
    static let softwareTag: UInt8 = 0x53  // "S"

    /// - Parameters:
    ///   - keychain: the keychain (on Apple platforms `KeychainDPoPKeyStore.keychain()` passes the system's).
    ///   - item: where the key lives; `ThisDeviceOnly` is forced whatever `item` says.
    ///   - enclave: the Secure Enclave, or `nil` for a software key.
    public init(keychain: any KeychainAPI, item: KeychainItem = Self.defaultItem, enclave: SecureEnclaveKeys? = nil) {
        var item = item
        if !item.accessibility.isThisDeviceOnly { item.accessibility = .afterFirstUnlockThisDeviceOnly }
        self.item = item
        self.keychain = keychain
        self.enclave = enclave
    }

    /// `SessionKit` / `dpop-key`, after the first unlock, this device only.
    public static let defaultItem = KeychainItem(service: "SessionKit", account: "dpop-key")

    public func existingKey() throws(DPoPKeyError) -> (any DPoPSigningKey)? {
        let (status, data) = keychain.copyData(item)
        if status == .itemNotFound { return nil }
        guard status == .success, let data, let tag = data.first else {
            throw DPoPKeyError.unavailable.with(detail: "reading the key item: \(status)")
        }
        let blob = data.dropFirst()
        switch tag {
        case Self.enclaveTag:
            // A blob no Secure Enclave here can open (another device's, restored): the key is gone.
            guard let enclave else { return nil }
            return try enclave.key(Data(blob))
        case Self.softwareTag:
            guard blob.count == 32 else { return nil }
            do {
                return try SoftwareDPoPKey(rawRepresentation: Data(blob))
            } catch {
                return nil
            }
        default:
            return nil
        }
    }

    public func createKey() throws(DPoPKeyError) -> any DPoPSigningKey {
        let key: any DPoPSigningKey
        let data: Data
        if let enclave {
            let made = try enclave.newKey()
            key = made.key
            data = Data([Self.enclaveTag]) + made.dataRepresentation
        } else {
            let software = SoftwareDPoPKey()
            key = software
            data = Data([Self.softwareTag]) + software.rawRepresentation
        }
        var status = keychain.add(item, data: data)
        if status == .duplicateItem { status = keychain.update(item, data: data) }
        guard status == .success else { throw DPoPKeyError.unavailable.with(detail: "keeping the key item: \(status)") }
        return key
    }
}

/// The Secure Enclave, as ``KeychainDPoPKeyStore`` uses it: make a key, reopen one from its blob.
///
/// On Apple platforms with a Secure Enclave, `SecureEnclaveKeys.system` wraps
/// CryptoKit's `SecureEnclave.P256.Signing.PrivateKey`; tests pass their own closures.
public struct SecureEnclaveKeys: Sendable {
    let newKey: @Sendable () throws(DPoPKeyError) -> (key: any DPoPSigningKey, dataRepresentation: Data)
    let key: @Sendable (Data) throws(DPoPKeyError) -> (any DPoPSigningKey)?

    /// - Parameters:
    ///   - newKey: makes a key in the enclave, and its `dataRepresentation`.
    ///   - key: reopens a key from its `dataRepresentation`; `nil` when this enclave cannot (another device's blob).
    public init(
        newKey: @escaping @Sendable () throws(DPoPKeyError) -> (key: any DPoPSigningKey, dataRepresentation: Data),
        key: @escaping @Sendable (Data) throws(DPoPKeyError) -> (any DPoPSigningKey)?
    ) {
        self.newKey = newKey
        self.key = key
    }
}
