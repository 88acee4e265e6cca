/// The platform's own lifecycle: `UIApplication`'s notifications on iOS,
/// tvOS, visionOS and Mac Catalyst, `NSApplication`'s (and waking from sleep)
/// on macOS; elsewhere (Linux, watchOS) an empty stream that has already ended.
public struct SystemAppLifecycle: AppLifecycleEvents {
    public init() {}

    public func events() async -> AsyncStream<AppLifecycleEvent> {
        #if canImport(UIKit) && !os(watchOS)
        await UIApplicationLifecycle().events()
        #elseif canImport(AppKit)
        await NSApplicationLifecycle().events()
        #else
        // Nothing to follow: an ended stream ends the client's observation at once.
        AsyncStream { $0.finish() }
        #endif
    }
}
