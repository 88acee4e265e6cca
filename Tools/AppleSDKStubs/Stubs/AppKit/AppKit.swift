// Interface stub of Apple's AppKit: the declarations SessionKit uses, as
// Apple's pages declare them. Type-checking only (see ../../check.sh).
import Foundation

// https://developer.apple.com/documentation/appkit/nsresponder — `@MainActor class NSResponder`
@available(macOS 10.0, *)
@MainActor open class NSResponder: NSObject {
    override public init() {}
}

// https://developer.apple.com/documentation/appkit/nsapplication — `@MainActor class NSApplication`
@available(macOS 10.0, *)
@MainActor open class NSApplication: NSResponder {
    // https://developer.apple.com/documentation/appkit/nsapplication/shared
    open class var shared: NSApplication { stub() }
    // https://developer.apple.com/documentation/appkit/nsapplication/keywindow
    open var keyWindow: NSWindow? { stub() }
    // https://developer.apple.com/documentation/appkit/nsapplication/windows
    open var windows: [NSWindow] { stub() }
    // https://developer.apple.com/documentation/appkit/nsapplication/didbecomeactivenotification
    // `class let didBecomeActiveNotification: NSNotification.Name`: a main-actor member, unlike UIKit's
    public static let didBecomeActiveNotification = NSNotification.Name("NSApplicationDidBecomeActiveNotification")
    // https://developer.apple.com/documentation/appkit/nsapplication/didresignactivenotification
    public static let didResignActiveNotification = NSNotification.Name("NSApplicationDidResignActiveNotification")
    // https://developer.apple.com/documentation/appkit/nsapplication/isprotecteddataavailable — `var isProtectedDataAvailable: Bool { get }` (macOS 12)
    @available(macOS 12.0, *)
    open var isProtectedDataAvailable: Bool { stub() }
}

// https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nsapplicationprotecteddatadidbecomeavailable
// `static let NSApplicationProtectedDataDidBecomeAvailable: NSNotification.Name` (macOS 12): AppKit's C global
// `NSApplicationProtectedDataDidBecomeAvailableNotification` has no Swift name on NSApplication, so Swift
// imports it on NSNotification.Name; a C global, so not main-actor. "The system posts this notification
// on the main actor" (https://developer.apple.com/documentation/appkit/nsapplicationprotecteddatadidbecomeavailablenotification).
extension NSNotification.Name {
    @available(macOS 12.0, *)
    public static let NSApplicationProtectedDataDidBecomeAvailable = NSNotification.Name("NSApplicationProtectedDataDidBecomeAvailableNotification")
}

// https://developer.apple.com/documentation/appkit/nswindow — `@MainActor class NSWindow`
@available(macOS 10.0, *)
@MainActor open class NSWindow: NSResponder {}

// https://developer.apple.com/documentation/appkit/nsworkspace — `class NSWorkspace`, not main-actor:
// `shared` and `notificationCenter` "can be accessed safely from any thread" (their pages)
@available(macOS 10.0, *)
open class NSWorkspace: NSObject, @unchecked Sendable {
    // https://developer.apple.com/documentation/appkit/nsworkspace/shared
    open class var shared: NSWorkspace { stub() }
    // https://developer.apple.com/documentation/appkit/nsworkspace/notificationcenter
    open var notificationCenter: NotificationCenter { stub() }
    // https://developer.apple.com/documentation/appkit/nsworkspace/didwakenotification
    public static let didWakeNotification = NSNotification.Name("NSWorkspaceDidWakeNotification")
}

func stub() -> Never { fatalError("Apple SDK interface stub: type-checking only") }
