import Foundation

/// Block-based `NotificationCenter` observers, removed together.
///
/// The observer tokens are not `Sendable`; a lock keeps them, so the
/// stream's `onTermination` (called on any thread) can remove them.
final class NotificationObservers: @unchecked Sendable {
    private let center: NotificationCenter
    private let lock = NSLock()
    private var tokens: [any NSObjectProtocol] = []

    init(center: NotificationCenter) {
        self.center = center
    }

    /// Calls `action` on every `name` notification, on the thread that posts it.
    func add(_ name: Notification.Name, _ action: @escaping @Sendable () -> Void) {
        let token = center.addObserver(forName: name, object: nil, queue: nil) { @Sendable _ in action() }
        lock.withLock { tokens.append(token) }
    }

    func removeAll() {
        let removed: [any NSObjectProtocol] = lock.withLock {
            defer { tokens = [] }
            return tokens
        }
        for token in removed { center.removeObserver(token) }
    }
}
