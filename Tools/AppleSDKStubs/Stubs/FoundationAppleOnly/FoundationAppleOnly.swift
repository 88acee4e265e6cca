// Apple's Foundation has members that swift-corelibs-foundation (Linux) has
// not. check.sh imports this module implicitly into the checked sources
// (`-import-module`), as if they came with `import Foundation`.
import Foundation
// On Apple platforms URLRequest, URLSession and HTTPURLResponse come with
// Foundation; on Linux they are in FoundationNetworking.
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif

extension ProcessInfo {
    // https://developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:)
    @available(iOS 8.2, tvOS 9.0, watchOS 2.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        fatalError("Apple SDK interface stub: type-checking only")
    }
}

extension FileManager {
    // https://developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        fatalError("Apple SDK interface stub: type-checking only")
    }
}

extension NotificationCenter {
    // https://developer.apple.com/documentation/foundation/notificationcenter/notifications(named:object:)
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public func notifications(named name: Notification.Name, object: (any AnyObject & Sendable)? = nil) -> NotificationCenter.Notifications {
        fatalError("Apple SDK interface stub: type-checking only")
    }

    // https://developer.apple.com/documentation/foundation/notificationcenter/notifications
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public final class Notifications: AsyncSequence {
        public typealias Element = Notification
        public struct Iterator: AsyncIteratorProtocol {
            public mutating func next() async -> Notification? {
                fatalError("Apple SDK interface stub: type-checking only")
            }
        }
        public func makeAsyncIterator() -> Iterator {
            fatalError("Apple SDK interface stub: type-checking only")
        }
    }
}

// Darwin notifications (notify.h), which `import Foundation` brings on Apple platforms through Darwin.
// Imported C functions: nonisolated. The handler is a C block typedef, so an optional (escaping) closure.
// https://developer.apple.com/documentation/darwinnotify/notify_handler_t
public typealias notify_handler_t = (Int32) -> Void
// https://developer.apple.com/documentation/darwinnotify/notify_post(_:)
public func notify_post(_ name: UnsafePointer<CChar>!) -> UInt32 {
    fatalError("Apple SDK interface stub: type-checking only")
}
// https://developer.apple.com/documentation/darwinnotify/notify_register_dispatch(_:_:_:_:)
@available(iOS 3.2, macOS 10.6, watchOS 2.0, visionOS 1.0, *)
public func notify_register_dispatch(
    _ name: UnsafePointer<CChar>!, _ out_token: UnsafeMutablePointer<Int32>!, _ queue: DispatchQueue!,
    _ handler: notify_handler_t!
) -> UInt32 {
    fatalError("Apple SDK interface stub: type-checking only")
}
// https://developer.apple.com/documentation/darwinnotify/notify_cancel(_:)
public func notify_cancel(_ token: Int32) -> UInt32 {
    fatalError("Apple SDK interface stub: type-checking only")
}
