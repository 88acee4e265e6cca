#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import Foundation

/// Protected data as AppKit reports it (macOS 12 and later):
/// `NSApplication.isProtectedDataAvailable` and the
/// `NSApplicationProtectedDataDidBecomeAvailable` notification, as
/// ``UIApplicationProtectedData`` follows UIKit's.
///
/// A Mac's data-protection keychain locks its "when unlocked" items while the
/// user is logged out or the screen is locked with FileVault's protection; the
/// item SessionKit writes by default (after first unlock) is readable after
/// the first login. Pages: developer.apple.com/documentation/appkit/nsapplication/isprotecteddataavailable
/// and .../appkit/nsapplicationprotecteddatadidbecomeavailablenotification.
public struct NSApplicationProtectedData: ProtectedDataAvailability {
    public init() {}

    public var isAvailable: Bool {
        get async { await Self.availableNow() }
    }

    public func waitUntilAvailable(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Subscribe before checking, so a notification posted in between is not missed.
                let notifications = NotificationCenter.default.notifications(named: .NSApplicationProtectedDataDidBecomeAvailable)
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
        NSApplication.shared.isProtectedDataAvailable
    }
}
#endif
