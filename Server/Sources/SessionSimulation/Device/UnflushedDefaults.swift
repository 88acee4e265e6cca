import Foundation
import SessionKit

/// The app's `UserDefaults` as a killed process leaves them: a removal is
/// written to disk some time later, so one made just before the process is
/// killed is lost, and the next launch finds the value again.
///
/// UserDefaults "persists … asynchronously" and `synchronize()` is "unneeded
/// and shouldn't be used" (Apple's `UserDefaults` and `synchronize()`
/// reference pages): nothing guarantees a removal reached the disk before a
/// kill.
final class UnflushedDefaults: LegacyKeyValueSource, @unchecked Sendable {
    // Read and written under `lock`.
    private let lock = NSLock()
    private var onDisk: [String: Data] = [:]
    private var removedInMemory: Set<String> = []

    func set(_ data: Data, forKey key: String) {
        lock.withLock {
            onDisk[key] = data
            removedInMemory.remove(key)
        }
    }

    func data(forKey key: String) -> Data? {
        lock.withLock { removedInMemory.contains(key) ? nil : onDisk[key] }
    }

    func removeValue(forKey key: String) {
        _ = lock.withLock { removedInMemory.insert(key) }
    }

    /// The process is killed before the defaults reached the disk.
    func processKilled() {
        lock.withLock { removedInMemory = [] }
    }
}
