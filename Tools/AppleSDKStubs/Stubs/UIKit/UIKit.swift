// Interface stub of Apple's UIKit: the declarations SessionKit and the sample
// app use, as Apple's pages declare them (`@MainActor` classes included).
// Type-checking only (see ../../check.sh).
//
// Built per platform (check.sh passes the platform's SDKSTUB_OS_* flag): watchOS
// has a UIKit of colours, fonts and images, but no UIApplication, UIScene,
// UIView or UIWindow (their pages list iOS, iPadOS, Mac Catalyst, tvOS and
// visionOS only), so code using them on watchOS fails here as in Xcode.
import Foundation

#if !SDKSTUB_OS_watchOS

// https://developer.apple.com/documentation/uikit/uiresponder — `@MainActor class UIResponder`
@available(iOS 2.0, tvOS 9.0, visionOS 1.0, *)
@MainActor open class UIResponder: NSObject {
    override public init() {}
}

// https://developer.apple.com/documentation/uikit/uiapplication — `@MainActor class UIApplication`
@available(iOS 2.0, tvOS 9.0, visionOS 1.0, *)
@available(iOSApplicationExtension, unavailable)
@MainActor open class UIApplication: UIResponder {
    // https://developer.apple.com/documentation/uikit/uiapplication/shared — `class var shared: UIApplication { get }`
    @available(iOSApplicationExtension, unavailable)
    open class var shared: UIApplication { stub() }

    // https://developer.apple.com/documentation/uikit/uiapplication/isprotecteddataavailable
    // `nonisolated var isProtectedDataAvailable: Bool { get }`
    nonisolated open var isProtectedDataAvailable: Bool { stub() }

    // https://developer.apple.com/documentation/uikit/uiapplication/connectedscenes
    @available(iOS 13.0, tvOS 13.0, *)
    open var connectedScenes: Set<UIScene> { stub() }

    // https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification
    // `nonisolated class let didBecomeActiveNotification: NSNotification.Name`; the other
    // notification names of UIApplication are imported from the same C globals alike.
    nonisolated public static let didBecomeActiveNotification = NSNotification.Name("UIApplicationDidBecomeActiveNotification")
    // https://developer.apple.com/documentation/uikit/uiapplication/didenterbackgroundnotification
    nonisolated public static let didEnterBackgroundNotification = NSNotification.Name("UIApplicationDidEnterBackgroundNotification")
    // https://developer.apple.com/documentation/uikit/uiapplication/protecteddatadidbecomeavailablenotification
    nonisolated public static let protectedDataDidBecomeAvailableNotification = NSNotification.Name("UIApplicationProtectedDataDidBecomeAvailable")
}

// https://developer.apple.com/documentation/uikit/uiscene — `@MainActor class UIScene`
@available(iOS 13.0, tvOS 13.0, visionOS 1.0, *)
@MainActor open class UIScene: UIResponder {
    // https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.enum
    public enum ActivationState: Int, @unchecked Sendable {
        case unattached = -1
        case foregroundActive = 0
        case foregroundInactive = 1
        case background = 2
    }

    // https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.property
    open var activationState: UIScene.ActivationState { stub() }
}

// https://developer.apple.com/documentation/uikit/uiwindowscene — `@MainActor class UIWindowScene`
@available(iOS 13.0, tvOS 13.0, visionOS 1.0, *)
@MainActor open class UIWindowScene: UIScene {
    // https://developer.apple.com/documentation/uikit/uiwindowscene/windows
    open var windows: [UIWindow] { stub() }
}

// https://developer.apple.com/documentation/uikit/uiview — `@MainActor class UIView`
@available(iOS 2.0, tvOS 9.0, visionOS 1.0, *)
@MainActor open class UIView: UIResponder {}

// https://developer.apple.com/documentation/uikit/uiwindow — `@MainActor class UIWindow`
@available(iOS 2.0, tvOS 9.0, visionOS 1.0, *)
@MainActor open class UIWindow: UIView {
    // https://developer.apple.com/documentation/uikit/uiwindow/init() — `convenience init()`, deprecated in
    // iOS, iPadOS, Mac Catalyst, tvOS and visionOS 26.0 (its page: "2.0 - 26.0"). Linux cannot check a
    // platform version, so the stub deprecates it outright: a call warns, and warnings fail the check.
    @available(*, deprecated, message: "deprecated in iOS 26.0: use init(windowScene:)")
    override public init() {}
    // https://developer.apple.com/documentation/uikit/uiwindow/init(windowscene:)
    @available(iOS 13.0, tvOS 13.0, *)
    public init(windowScene: UIWindowScene) {}
    // https://developer.apple.com/documentation/uikit/uiwindow/iskeywindow
    open var isKeyWindow: Bool { stub() }
}
#endif

func stub() -> Never { fatalError("Apple SDK interface stub: type-checking only") }
