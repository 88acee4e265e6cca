// Interface stub of Apple's LocalAuthentication framework: only the declarations
// SessionKit uses, each as Apple's page declares it. Bodies are never run (see ../../check.sh).
// LocalAuthentication exists on iOS, macOS, Mac Catalyst, visionOS and watchOS, not
// on tvOS: check.sh does not build this module for tvOS, so `canImport` is false there.
import Foundation

// https://developer.apple.com/documentation/localauthentication/lapolicy
// NS_ENUM (open): built with library evolution, a switch over it needs `@unknown default`.
@available(iOS 8.0, macOS 10.10, watchOS 3.0, visionOS 1.0, *)
public enum LAPolicy: Int, @unchecked Sendable {
    // https://developer.apple.com/documentation/localauthentication/lapolicy/deviceownerauthenticationwithbiometrics
    case deviceOwnerAuthenticationWithBiometrics = 1
    // https://developer.apple.com/documentation/localauthentication/lapolicy/deviceownerauthentication
    case deviceOwnerAuthentication = 2
    #if SDKSTUB_OS_macOS
    // https://developer.apple.com/documentation/localauthentication/lapolicy/deviceownerauthenticationwithwatch (macOS only)
    case deviceOwnerAuthenticationWithWatch = 3
    // https://developer.apple.com/documentation/localauthentication/lapolicy/deviceownerauthenticationwithbiometricsorwatch (macOS only)
    case deviceOwnerAuthenticationWithBiometricsOrWatch = 4
    #endif
    #if SDKSTUB_OS_watchOS
    // https://developer.apple.com/documentation/localauthentication/lapolicy/deviceownerauthenticationwithwristdetection (watchOS only)
    case deviceOwnerAuthenticationWithWristDetection = 5
    #endif
}

// https://developer.apple.com/documentation/localauthentication/labiometrytype
#if !SDKSTUB_OS_watchOS
@available(iOS 11.0, macOS 10.13.2, visionOS 1.0, *)
public enum LABiometryType: Int, @unchecked Sendable {
    case none = 0
    case touchID = 1
    case faceID = 2
    // https://developer.apple.com/documentation/localauthentication/labiometrytype/opticid
    @available(iOS 17.0, macOS 14.0, visionOS 1.0, *)
    case opticID = 4
}
#endif

// https://developer.apple.com/documentation/localauthentication/laerrordomain — `let LAErrorDomain: String`
@available(iOS 8.3, macOS 10.11, watchOS 3.0, visionOS 1.0, *)
nonisolated(unsafe) public let LAErrorDomain: String = "com.apple.LocalAuthentication"

// https://developer.apple.com/documentation/localauthentication/laerror-swift.struct
@available(iOS 8.0, macOS 10.10, watchOS 3.0, visionOS 1.0, *)
public struct LAError: Error, Hashable, Sendable {
    // https://developer.apple.com/documentation/localauthentication/laerror-swift.struct/code
    // NS_ENUM (open): every case the page lists; a switch needs `@unknown default`.
    public enum Code: Int, @unchecked Sendable {
        case authenticationFailed = -1
        case userCancel = -2
        case userFallback = -3
        case systemCancel = -4
        case passcodeNotSet = -5
        case biometryNotAvailable = -6
        case biometryNotEnrolled = -7
        case biometryLockout = -8
        case appCancel = -9
        case invalidContext = -10
        case companionNotAvailable = -11
        #if SDKSTUB_OS_macOS
        case biometryNotPaired = -12
        case biometryDisconnected = -13
        case invalidDimensions = -14
        #endif
        case notInteractive = -1004
    }

    public let code: Code
}

// https://developer.apple.com/documentation/localauthentication/lacontext
@available(iOS 8.0, macOS 10.10, watchOS 3.0, visionOS 1.0, *)
open class LAContext: NSObject {
    override public init() { stub() }

    // https://developer.apple.com/documentation/localauthentication/lacontext/canevaluatepolicy(_:error:)
    // Objective-C `NSError **`, imported as `NSErrorPointer` (an AutoreleasingUnsafeMutablePointer<NSError?>?,
    // which Linux lacks): the nearest Swift is an optional pointer to `NSError?`; `&error` fits both.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: UnsafeMutablePointer<NSError?>?) -> Bool { stub() }

    // https://developer.apple.com/documentation/localauthentication/lacontext/evaluatepolicy(_:localizedreason:reply:)
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        stub()
    }

    // https://developer.apple.com/documentation/localauthentication/lacontext/invalidate()
    @available(iOS 9.0, macOS 10.11, watchOS 3.0, visionOS 1.0, *)
    open func invalidate() { stub() }

    // https://developer.apple.com/documentation/localauthentication/lacontext/interactionnotallowed
    @available(iOS 11.0, macOS 10.13, watchOS 4.0, visionOS 1.0, *)
    open var interactionNotAllowed: Bool {
        get { stub() }
        set { stub() }
    }

    // https://developer.apple.com/documentation/localauthentication/lacontext/localizedreason
    @available(iOS 13.0, macOS 10.15, watchOS 6.0, visionOS 1.0, *)
    open var localizedReason: String {
        get { stub() }
        set { stub() }
    }

    #if !SDKSTUB_OS_watchOS
    // https://developer.apple.com/documentation/localauthentication/lacontext/touchidauthenticationallowablereuseduration
    // (iOS, iPadOS, Mac Catalyst, macOS, visionOS: not watchOS)
    @available(iOS 9.0, macOS 10.12, visionOS 1.0, *)
    open var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { stub() }
        set { stub() }
    }

    // https://developer.apple.com/documentation/localauthentication/lacontext/biometrytype
    @available(iOS 11.0, macOS 10.13.2, visionOS 1.0, *)
    open var biometryType: LABiometryType { stub() }

    // https://developer.apple.com/documentation/localauthentication/lacontext/evaluatedpolicydomainstate
    @available(iOS 9.0, macOS 10.11, visionOS 1.0, *)
    open var evaluatedPolicyDomainState: Data? { stub() }
    #endif
}

func stub() -> Never { fatalError("Apple SDK interface stub: type-checking only") }
