/// Where ``SessionClient`` learns that the app became active or went to the background.
///
/// ``SystemAppLifecycle`` reads UIKit's or AppKit's notifications; tests pass
/// a scripted source (`ScriptedAppLifecycle` in SessionKitTesting).
public protocol AppLifecycleEvents: Sendable {
    /// A new stream of the events from now on, for one subscriber.
    ///
    /// The stream ends when its subscriber stops iterating (its task is
    /// cancelled); the source then releases whatever it observed with.
    func events() async -> AsyncStream<AppLifecycleEvent>
}
