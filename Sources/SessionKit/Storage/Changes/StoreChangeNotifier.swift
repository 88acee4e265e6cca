import Foundation

/// Tells the processes sharing a store that it changed, and hears them
/// (docs/PROTOCOL.md, "Hearing other processes").
///
/// A notification carries no data: a process that hears one re-reads the
/// store under rule A (adopt forward only) and publishes what changed, so
/// nothing a session holds crosses the notification. Several notifications
/// while a re-read runs collapse into one more re-read; none ever refreshes.
public protocol StoreChangeNotifier: Sendable {
    /// Tells every process watching that the store was written. A store calls
    /// it after every successful save or clear; a notifier whose signal is
    /// the write itself (a watched folder) does nothing here.
    func post()

    /// The notifications, this process's own included (a re-read that finds
    /// nothing new changes nothing), buffered to the newest one: a flood
    /// while the listener is busy is one pending element, not many.
    ///
    /// The stream ends when its consumer stops iterating; each call is a new watch.
    func changes() -> AsyncStream<Void>
}

extension SessionStore {
    /// The store's change notifications; `nil` (the default) for a store no other process can see.
    public var changeNotifier: (any StoreChangeNotifier)? { nil }
}
