import Foundation
import NIOConcurrencyHelpers

/// Answers remembered for a bounded time and forgotten all at once, the
/// shape both ``SessionCheckCache`` and ``UserCache`` need.
///
/// The epoch is what keeps a write from being undone by a read: a caller takes
/// the epoch with its lookup, reads the database, and remembers what it read
/// under that epoch; if ``forgetAll()`` ran in between (a write committed),
/// the answer is dropped instead of stored.
///
/// A lock, not an actor: lookups sit on the request path, and an actor call
/// costs more executor hops than the dictionary read it guards.
final class EpochCache<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        let value: Value
        let goodUntil: Date
    }

    private struct State: Sendable {
        var entries: [String: Entry] = [:]
        var epoch: UInt64 = 0
    }

    /// The most entries held; past it the cache starts over.
    let capacity: Int
    private let state = NIOLockedValueBox(State())

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The value under `key` if still good at `now`, and the epoch to remember a fresh read under.
    func lookup(_ key: String, now: Date) -> (value: Value?, epoch: UInt64) {
        state.withLockedValue { state in
            guard let entry = state.entries[key], now < entry.goodUntil else { return (nil, state.epoch) }
            return (entry.value, state.epoch)
        }
    }

    /// Remembers `value` until `goodUntil`, unless the cache was emptied since `readEpoch`.
    func remember(_ value: Value, for key: String, goodUntil: Date, epoch readEpoch: UInt64) {
        guard capacity > 0 else { return }
        let entry = Entry(value: value, goodUntil: goodUntil)
        let capacity = self.capacity
        state.withLockedValue { state in
            guard readEpoch == state.epoch else { return }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = entry
        }
    }

    /// Forgets every entry and voids every read in progress.
    func forgetAll() {
        state.withLockedValue { state in
            state.epoch &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }

    var count: Int { state.withLockedValue { $0.entries.count } }
}
