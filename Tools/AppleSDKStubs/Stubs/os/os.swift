// Interface stub of Apple's `os` module: the unified-logging surface
// SessionKit uses, as Apple's pages declare it. Type-checking only (see ../../check.sh).
//
// Not reproduced: the real OSLogMessage is checked by the compiler's os_log
// optimisation (constant format and privacy arguments); a stub cannot do that.
import Foundation

// https://developer.apple.com/documentation/os/logger — `struct Logger`. Sendable as Swift 6 code
// uses it from any isolation; its page's conformance list could not be read to confirm the spelling.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
public struct Logger: @unchecked Sendable {
    // https://developer.apple.com/documentation/os/logger/init(subsystem:category:)
    public init(subsystem: String, category: String) {}
    // https://developer.apple.com/documentation/os/logger/init()
    public init() {}
    // https://developer.apple.com/documentation/os/logger/log(level:_:)
    public func log(level: OSLogType, _ message: OSLogMessage) {}
}

// https://developer.apple.com/documentation/os/oslogtype — a C struct with static members
public struct OSLogType: Equatable, RawRepresentable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    // https://developer.apple.com/documentation/os/oslogtype/default
    public static let `default` = OSLogType(rawValue: 0x00)
    // https://developer.apple.com/documentation/os/oslogtype/info
    public static let info = OSLogType(rawValue: 0x01)
    // https://developer.apple.com/documentation/os/oslogtype/debug
    public static let debug = OSLogType(rawValue: 0x02)
    // https://developer.apple.com/documentation/os/oslogtype/error
    public static let error = OSLogType(rawValue: 0x10)
    // https://developer.apple.com/documentation/os/oslogtype/fault
    public static let fault = OSLogType(rawValue: 0x11)
}

// https://developer.apple.com/documentation/os/oslogmessage — `@frozen struct OSLogMessage`
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@frozen public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public init(stringInterpolation: OSLogInterpolation) {}
    public init(stringLiteral value: String) {}
}

// https://developer.apple.com/documentation/os/osloginterpolation — `@frozen struct OSLogInterpolation`
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@frozen public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}
    // https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:align:privacy:)-6tazr
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {}
    // https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:align:privacy:)-84m60
    public mutating func appendInterpolation<T: CustomStringConvertible>(
        _ value: @autoclosure @escaping () -> T, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {}
}

// https://developer.apple.com/documentation/os/oslogprivacy — `@frozen struct OSLogPrivacy`
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@frozen public struct OSLogPrivacy: Equatable, Sendable {
    let kind: UInt8
    // https://developer.apple.com/documentation/os/oslogprivacy/auto
    public static let auto = OSLogPrivacy(kind: 0)
    // https://developer.apple.com/documentation/os/oslogprivacy/public
    public static let `public` = OSLogPrivacy(kind: 1)
    // https://developer.apple.com/documentation/os/oslogprivacy/private
    public static let `private` = OSLogPrivacy(kind: 2)
    // https://developer.apple.com/documentation/os/oslogprivacy/sensitive
    public static let sensitive = OSLogPrivacy(kind: 3)
}

// https://developer.apple.com/documentation/os/oslogstringalignment — `@frozen struct OSLogStringAlignment`
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@frozen public struct OSLogStringAlignment: Sendable {
    // https://developer.apple.com/documentation/os/oslogstringalignment/none
    public static let none = OSLogStringAlignment()
}
