import Foundation

/// Keeps the process alive while the client holds the store's cross-process
/// lock, so the system does not suspend an app mid-refresh with a lock held
/// in a shared (app group) container — which would make its extensions wait,
/// and which the system punishes by killing the app.
public protocol BackgroundActivityProvider: Sendable {
    /// Starts an activity named `reason`; end it with ``BackgroundActivity/end()``.
    func begin(_ reason: String) -> any BackgroundActivity

    /// Starts an activity named `reason`; when the system takes the time back
    /// before it ends, `onExpiration` runs, and should stop the work and
    /// release what it holds (a lock in a shared container), quickly.
    func begin(_ reason: String, onExpiration: @escaping @Sendable () -> Void) -> any BackgroundActivity
}

extension BackgroundActivityProvider {
    /// Providers whose time never runs out ignore `onExpiration`.
    public func begin(_ reason: String, onExpiration: @escaping @Sendable () -> Void) -> any BackgroundActivity {
        begin(reason)
    }
}

/// A running background activity.
public protocol BackgroundActivity: Sendable {
    /// Ends the activity. Idempotent.
    func end()
}

/// The platform's own: an expiring activity on iOS, tvOS, watchOS and
/// visionOS (`ProcessInfo.performExpiringActivity`, which app extensions may
/// use too); nothing elsewhere, where processes are not suspended under a lock.
public struct SystemBackgroundActivity: BackgroundActivityProvider {
    public init() {}

    public func begin(_ reason: String) -> any BackgroundActivity {
        begin(reason, onExpiration: {})
    }

    public func begin(_ reason: String, onExpiration: @escaping @Sendable () -> Void) -> any BackgroundActivity {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        ExpiringActivity(reason: reason, onExpiration: onExpiration)
        #else
        NoBackgroundActivity()
        #endif
    }
}

/// An activity that does nothing (platforms without suspension, tests).
public struct NoBackgroundActivity: BackgroundActivity, BackgroundActivityProvider {
    public init() {}
    public func end() {}
    public func begin(_ reason: String) -> any BackgroundActivity { self }
}
