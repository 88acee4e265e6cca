#if canImport(UIKit) && !os(watchOS)
import Foundation
import UIKit

/// `UIApplication.didBecomeActiveNotification`, `didEnterBackgroundNotification`
/// and `protectedDataDidBecomeAvailableNotification` as ``AppLifecycleEvent``s
/// (iOS, tvOS, visionOS, Mac Catalyst).
///
/// Scene-based apps get them too: the application becomes active with its
/// first foreground scene. App extensions do not; there the stream stays silent.
public struct UIApplicationLifecycle: AppLifecycleEvents {
    public init() {}

    public func events() async -> AsyncStream<AppLifecycleEvent> {
        await Self.subscribe()
    }

    /// Registers on the main actor: UIKit's notification names are main-actor
    /// members of `UIApplication` in recent SDKs.
    @MainActor private static func subscribe() -> AsyncStream<AppLifecycleEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: AppLifecycleEvent.self, bufferingPolicy: .bufferingNewest(8))
        let observers = NotificationObservers(center: .default)
        observers.add(UIApplication.didBecomeActiveNotification) { continuation.yield(.didBecomeActive) }
        observers.add(UIApplication.didEnterBackgroundNotification) { continuation.yield(.didEnterBackground) }
        observers.add(UIApplication.protectedDataDidBecomeAvailableNotification) {
            continuation.yield(.protectedDataDidBecomeAvailable)
        }
        continuation.onTermination = { _ in observers.removeAll() }
        return stream
    }
}
#endif
