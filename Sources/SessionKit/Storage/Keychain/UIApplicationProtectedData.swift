#if canImport(UIKit) && !os(watchOS)
import Foundation
import UIKit

/// Protected data as UIKit reports it: `UIApplication.isProtectedDataAvailable`
/// and `protectedDataDidBecomeAvailableNotification` (iOS, tvOS, visionOS, Mac Catalyst).
///
/// It is false before the first unlock after a restart (a prewarmed launch) and,
/// on a device with a passcode, while it is locked.
///
/// - Important: `UIApplication.shared` does not exist in app extensions, so
///   neither does this type; an extension passes ``KeychainProbeProtectedData``
///   (or its own binding) to ``KeychainSessionStore``.
@available(iOSApplicationExtension, unavailable)
@available(tvOSApplicationExtension, unavailable)
@available(visionOSApplicationExtension, unavailable)
@available(macCatalystApplicationExtension, unavailable)
public struct UIApplicationProtectedData: ProtectedDataAvailability {
    public init() {}

    public var isAvailable: Bool {
        get async { await Self.availableNow() }
    }

    public func waitUntilAvailable(timeout: Duration) async -> Bool {
        let name = await Self.becameAvailable()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Subscribe before checking, so a notification posted in between is not missed.
                let notifications = NotificationCenter.default.notifications(named: name)
                if await Self.availableNow() { return }
                for await _ in notifications { return }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    // Cancelled: protected data became available first.
                }
            }
            // Whichever ends first ends the wait; cancelling ends the other.
            _ = await group.next()
            group.cancelAll()
        }
        // The state itself decides, not which task won.
        return await Self.availableNow()
    }

    @MainActor private static func availableNow() -> Bool {
        UIApplication.shared.isProtectedDataAvailable
    }

    @MainActor private static func becameAvailable() -> Notification.Name {
        UIApplication.protectedDataDidBecomeAvailableNotification
    }
}
#endif
