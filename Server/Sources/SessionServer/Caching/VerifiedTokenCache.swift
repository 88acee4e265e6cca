import Crypto
import Foundation
import NIOCore

/// Remembers access tokens whose signature and claims already checked out,
/// so a client that sends the same token on every request pays for one ES256
/// verification (about 90 µs of CPU) per token instead of one per request.
///
/// - Keyed by the token's SHA-256: the cache never holds a token.
/// - An entry is good until `exp + leeway` by the caller's clock, the very
///   moment a fresh verification would start answering `tokenExpired`.
/// - A signature never stops being valid, so expiry is the only way out of
///   the cache; ``AuthMiddleware`` still asks on each hit whether the signing
///   key is current (a retired key stops verifying at once, a cheap lookup with
///   no crypto), and revocation is the session check's job (``SessionCheckCache``),
///   which runs on every request, cached or not.
/// - Bounded: at capacity the oldest insertions go first (FIFO), so memory
///   stays at `capacity` entries however many distinct tokens arrive; expired
///   entries leave when looked up or when their turn comes.
public actor VerifiedTokenCache {
    struct Entry: Sendable {
        let token: VerifiedAccessToken
        let validUntil: Date
    }

    /// The most entries ever held.
    public let capacity: Int
    private var entries: [SHA256Digest: Entry] = [:]
    private var insertionOrder = CircularBuffer<SHA256Digest>()

    /// - Parameter capacity: the most tokens remembered; 0 remembers none.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many tokens are remembered now.
    public var count: Int { entries.count }

    /// The key a token is remembered under.
    public nonisolated static func key(for token: String) -> SHA256Digest {
        SHA256.hash(data: Data(token.utf8))
    }

    /// The verified token under `key`, if it is still good at `now`.
    public func token(for key: SHA256Digest, now: Date) -> VerifiedAccessToken? {
        guard let entry = entries[key] else { return nil }
        guard now <= entry.validUntil else {
            entries[key] = nil
            return nil
        }
        return entry.token
    }

    /// Remembers `token` under `key` until `validUntil`.
    public func insert(_ token: VerifiedAccessToken, for key: SHA256Digest, validUntil: Date, now: Date) {
        guard capacity > 0, now <= validUntil else { return }
        if entries[key] == nil {
            if entries.count >= capacity { evict() }
            insertionOrder.append(key)
        }
        entries[key] = Entry(token: token, validUntil: validUntil)
    }

    /// Drops the oldest insertions until there is room: O(1) per insert.
    /// (Sweeping every expired entry here would cost O(capacity) on each
    /// insert once full, exactly when distinct tokens arrive fastest.)
    private func evict() {
        while entries.count >= capacity, let oldest = insertionOrder.popFirst() {
            entries[oldest] = nil
        }
        // Keys of entries dropped on expiry linger in the order; keep it proportional.
        if insertionOrder.count > 2 * capacity {
            insertionOrder = CircularBuffer(insertionOrder.filter { entries[$0] != nil })
        }
    }
}
