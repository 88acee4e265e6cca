import Foundation

/// The one lifecycle-observing task of each ``SessionClient``.
///
/// Starting is idempotent per client (every `restore()` asks), and a task
/// that ends removes its own entry. Entries hold the client weakly and are
/// matched by identity, so a new client allocated where a dropped one lived
/// is never taken for it.
final class LifecycleObservations: @unchecked Sendable {
    static let shared = LifecycleObservations()

    private struct Entry {
        weak var client: SessionClient?
        let id: UInt64
        let task: Task<Void, Never>
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var nextID: UInt64 = 0

    /// Starts `body` for `client` unless a task already observes for it.
    ///
    /// - Parameter body: the observation; its entry is removed when it returns.
    /// - Returns: `true` when a task was started.
    @discardableResult
    func start(for client: SessionClient, _ body: @escaping @Sendable () async -> Void) -> Bool {
        let key = ObjectIdentifier(client)
        return lock.withLock {
            if let entry = entries[key], entry.client === client { return false }
            nextID += 1
            let id = nextID
            // Not started in `init`: the first `restore()` starts it and `shutdown()` (or the
            // end of the client's state stream) ends it, so nothing outlives the client.
            let task = Task {
                await body()
                self.remove(key, id: id)
            }
            entries[key] = Entry(client: client, id: id, task: task)
            return true
        }
    }

    /// Cancels `client`'s observation, if any.
    func stop(for client: SessionClient) {
        let key = ObjectIdentifier(client)
        let task: Task<Void, Never>? = lock.withLock {
            guard let entry = entries[key], entry.client === client else { return nil }
            entries[key] = nil
            return entry.task
        }
        task?.cancel()
    }

    /// True while a task observes for `client`.
    func isObserving(_ client: SessionClient) -> Bool {
        lock.withLock { entries[ObjectIdentifier(client)]?.client === client }
    }

    private func remove(_ key: ObjectIdentifier, id: UInt64) {
        lock.withLock {
            if entries[key]?.id == id { entries[key] = nil }
        }
    }
}

/// A client held weakly, for a task that must not keep it alive.
final class WeakClient: @unchecked Sendable {
    // Written once in `init`; a weak reference is read atomically.
    weak var value: SessionClient?

    init(_ client: SessionClient) {
        self.value = client
    }
}
