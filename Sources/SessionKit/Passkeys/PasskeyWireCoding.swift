import Foundation
import SessionCore

/// Reading and writing the WebAuthn JSON forms' pieces: binary members are
/// base64url without padding (WebAuthn Level 3 §5.1, `Base64URLString`).
enum PasskeyWireCoding {
    struct Parameter: Decodable {
        let alg: Int
    }

    struct Selection: Decodable {
        let residentKey: String?
        let userVerification: String?
    }

    private struct Descriptor: Decodable {
        let id: String
    }

    /// A base64url member, decoded; a typed `DecodingError` naming it when it is not base64url.
    static func bytes<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> Data {
        let text = try container.decode(String.self, forKey: key)
        guard let data = Base64URL.decode(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(key.stringValue) is not base64url")
        }
        return data
    }

    /// The same, absent allowed.
    static func optionalBytes<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> Data? {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        return try bytes(container, key)
    }

    /// The ids of a list of `PublicKeyCredentialDescriptorJSON`; absent is empty.
    static func descriptorIDs<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> [Data] {
        let descriptors = try container.decodeIfPresent([Descriptor].self, forKey: key) ?? []
        return try descriptors.map { descriptor in
            guard let id = Base64URL.decode(descriptor.id) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "a credential id is not base64url")
            }
            return id
        }
    }
}
