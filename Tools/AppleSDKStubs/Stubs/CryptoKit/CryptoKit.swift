// Interface stub of Apple's CryptoKit: the SHA-256 surface SessionKit uses,
// as Apple's pages declare it. Type-checking only (see ../../check.sh).
import Foundation
// The Secure Enclave's initialisers take a SecAccessControl and an LAContext (no LocalAuthentication on tvOS).
import Security
#if canImport(LocalAuthentication)
import LocalAuthentication
#endif

// https://developer.apple.com/documentation/cryptokit/hashfunction — `@preconcurrency protocol HashFunction : Sendable`
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
@preconcurrency public protocol HashFunction: Sendable {
    associatedtype Digest: CryptoKit.Digest
    // https://developer.apple.com/documentation/cryptokit/hashfunction/hash(data:)
    static func hash<D: DataProtocol>(data: D) -> Digest
}

// https://developer.apple.com/documentation/cryptokit/digest
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public protocol Digest: ContiguousBytes, CustomStringConvertible, Hashable, Sendable, Sequence where Element == UInt8 {
    static var byteCount: Int { get }
}

// https://developer.apple.com/documentation/cryptokit/sha256
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public struct SHA256: HashFunction {
    public typealias Digest = SHA256Digest
    public static func hash<D: DataProtocol>(data: D) -> SHA256Digest { fatalError("stub") }
}

// https://developer.apple.com/documentation/cryptokit/sha256digest
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public struct SHA256Digest: Digest {
    public static var byteCount: Int { 32 }
    public var description: String { fatalError("stub") }
    public func makeIterator() -> Array<UInt8>.Iterator { fatalError("stub") }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { fatalError("stub") }
}

// DPoP keys (SessionKit/DPoP): P-256 signing, in memory and in the Secure Enclave.
// https://developer.apple.com/documentation/cryptokit/p256 — `enum P256` (Conforms To Sendable)
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public enum P256: Sendable {
    // https://developer.apple.com/documentation/cryptokit/p256/signing
    public enum Signing: Sendable {
        // https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey
        public struct PrivateKey: Sendable {
            // https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey/init(compactrepresentable:)
            public init(compactRepresentable: Bool = true) { fatalError("stub") }
            // https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey/init(rawrepresentation:)
            public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { fatalError("stub") }
            // https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey/rawrepresentation
            public var rawRepresentation: Data { fatalError("stub") }
            // https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey/publickey
            public var publicKey: P256.Signing.PublicKey { fatalError("stub") }
            // https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey/signature(for:)
            public func signature<D: DataProtocol>(for data: D) throws -> P256.Signing.ECDSASignature { fatalError("stub") }
        }
        // https://developer.apple.com/documentation/cryptokit/p256/signing/publickey
        public struct PublicKey: Sendable {
            // https://developer.apple.com/documentation/cryptokit/p256/signing/publickey/init(rawrepresentation:)
            public init<D: ContiguousBytes>(rawRepresentation: D) throws { fatalError("stub") }
            // https://developer.apple.com/documentation/cryptokit/p256/signing/publickey/rawrepresentation
            public var rawRepresentation: Data { fatalError("stub") }
        }
        // https://developer.apple.com/documentation/cryptokit/p256/signing/ecdsasignature
        public struct ECDSASignature: Sendable {
            // https://developer.apple.com/documentation/cryptokit/p256/signing/ecdsasignature/init(rawrepresentation:)
            public init<D: DataProtocol>(rawRepresentation: D) throws { fatalError("stub") }
            // https://developer.apple.com/documentation/cryptokit/p256/signing/ecdsasignature/rawrepresentation
            public var rawRepresentation: Data { fatalError("stub") }
        }
    }
}

// https://developer.apple.com/documentation/cryptokit/secureenclave — `enum SecureEnclave`
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, visionOS 1.0, *)
public enum SecureEnclave: Sendable {
    // https://developer.apple.com/documentation/cryptokit/secureenclave/isavailable
    public static var isAvailable: Bool { fatalError("stub") }
    // https://developer.apple.com/documentation/cryptokit/secureenclave/p256
    public enum P256: Sendable {
        // https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing
        public enum Signing: Sendable {
            // https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey
            // (its page lists no Sendable: the stub leaves it out, so code must not assume it)
            public struct PrivateKey {
                #if !SDKSTUB_OS_tvOS
                // The two initialisers' pages list no tvOS.
                // https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(compactrepresentable:accesscontrol:authenticationcontext:)
                public init(
                    compactRepresentable: Bool = true,
                    accessControl: SecAccessControl = SecAccessControlCreateWithFlags(
                        nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil)!,
                    authenticationContext: LAContext? = nil
                ) throws { fatalError("stub") }
                // https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/init(datarepresentation:authenticationcontext:)
                public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws { fatalError("stub") }
                #endif
                // https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/datarepresentation
                public var dataRepresentation: Data { fatalError("stub") }
                // https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/publickey
                public var publicKey: CryptoKit.P256.Signing.PublicKey { fatalError("stub") }
                // https://developer.apple.com/documentation/cryptokit/secureenclave/p256/signing/privatekey/signature(for:)
                public func signature<D: DataProtocol>(for data: D) throws -> CryptoKit.P256.Signing.ECDSASignature { fatalError("stub") }
            }
        }
    }
}
