import Foundation
import HummingbirdBcrypt

/// bcrypt off the event loops and the cooperative pool, at most one hash per
/// core at a time: a cost-10 hash takes about 65 ms of CPU, and more at once
/// than there are cores only makes every one of them later (``WorkSlots``).
struct PasswordHasher: Sendable {
    let cost: UInt8
    let slots: WorkSlots

    /// - Parameter concurrency: the most hashes at once; the core count unless a test says otherwise.
    init(cost: UInt8, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.cost = cost
        self.slots = WorkSlots(limit: concurrency)
    }

    func hash(_ password: String) async -> String {
        let cost = self.cost
        return await slots.run { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String) async -> Bool {
        await slots.run { Bcrypt.verify(password, hash: hash) }
    }
}
