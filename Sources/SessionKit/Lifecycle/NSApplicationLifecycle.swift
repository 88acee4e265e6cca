#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import Foundation

/// `NSApplication.didBecomeActiveNotification`, waking from sleep
/// (`NSWorkspace.didWakeNotification`: timers did not run while the Mac slept)
/// and `NSApplication.didResignActiveNotification` as ``AppLifecycleEvent``s.
public struct NSApplicationLifecycle: AppLifecycleEvents {
    public init() {}

    public func events() async -> AsyncStream<AppLifecycleEvent> {
        await Self.subscribe()
    }

    /// Registers on the main actor: AppKit's notification names are main-actor
    /// members of `NSApplication` in recent SDKs.
    @MainActor private static func subscribe() -> AsyncStream<AppLifecycleEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: AppLifecycleEvent.self, bufferingPolicy: .bufferingNewest(8))
        let application = NotificationObservers(center: .default)
        application.add(NSApplication.didBecomeActiveNotification) { continuation.yield(.didBecomeActive) }
        application.add(NSApplication.didResignActiveNotification) { continuation.yield(.didEnterBackground) }
        // Sleep and wake are posted on the workspace's own notification center.
        let workspace = NotificationObservers(center: NSWorkspace.shared.notificationCenter)
        workspace.add(NSWorkspace.didWakeNotification) { continuation.yield(.didBecomeActive) }
        continuation.onTermination = { _ in
            application.removeAll()
            workspace.removeAll()
        }
        return stream
    }
}
#endif
