// Interface stub of Apple's CryptoKit: the SHA-256 surface SessionKit uses,
// as Apple's pages declare it. Type-checking only (see ../../check.sh).
import Foundation

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
