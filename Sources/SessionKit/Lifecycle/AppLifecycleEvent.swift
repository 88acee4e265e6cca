/// Something that happened to the app as a whole.
public enum AppLifecycleEvent: Sendable, Hashable {
    /// The app came to the foreground (or the Mac woke): timers may not have run meanwhile.
    case didBecomeActive
    /// The app went to the background (on macOS: stopped being the active app),
    /// where it may be suspended or killed at any moment.
    case didEnterBackground
    /// The device was unlocked (`UIApplication.protectedDataDidBecomeAvailableNotification`):
    /// a keychain item out of reach until now can be read.
    case protectedDataDidBecomeAvailable
}
