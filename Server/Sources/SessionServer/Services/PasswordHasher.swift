import Dispatch
import HummingbirdBcrypt

/// bcrypt, run on a Dispatch queue: a cost-10 hash takes about 65 ms and
/// must never block a NIO event loop or a cooperative-pool thread.
struct PasswordHasher: Sendable {
    let cost: UInt8

    func hash(_ password: String) async -> String {
        let cost = self.cost
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Bcrypt.hash(password, cost: cost))
            }
        }
    }

    func verify(_ password: String, hash: String) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Bcrypt.verify(password, hash: hash))
            }
        }
    }
}
