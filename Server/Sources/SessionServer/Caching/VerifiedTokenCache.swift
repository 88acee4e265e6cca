import Crypto
import Foundation
import NIOConcurrencyHelpers
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
/// - A lock, not an actor: a lookup is a hash and a dictionary read, far
///   cheaper than the two executor hops an actor call costs on the request
///   path (docs/BENCHMARKS.md, "Where the request's time goes").
public final class VerifiedTokenCache: Sendable {
    struct Entry: Sendable {
        let token: VerifiedAccessToken
        let validUntil: Date
    }

    /// The most entries ever held.
    public let capacity: Int
    private struct State {
        var entries: [SHA256Digest: Entry] = [:]
        var insertionOrder = CircularBuffer<SHA256Digest>()
    }
    private let state = NIOLockedValueBox(State())

    /// - Parameter capacity: the most tokens remembered; 0 remembers none.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many tokens are remembered now.
    public var count: Int { state.withLockedValue { $0.entries.count } }

    /// The key a token is remembered under.
    public static func key(for token: String) -> SHA256Digest {
        // Hashed in the string's own UTF-8 buffer: no copy into a `Data` first.
        var token = token
        return token.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    }

    /// The verified token under `key`, if it is still good at `now`.
    public func token(for key: SHA256Digest, now: Date) -> VerifiedAccessToken? {
        state.withLockedValue { state in
            guard let entry = state.entries[key] else { return nil }
            guard now <= entry.validUntil else {
                state.entries[key] = nil
                return nil
            }
            return entry.token
        }
    }

    /// Remembers `token` under `key` until `validUntil`.
    public func insert(_ token: VerifiedAccessToken, for key: SHA256Digest, validUntil: Date, now: Date) {
        guard capacity > 0, now <= validUntil else { return }
        let capacity = self.capacity
        state.withLockedValue { state in
            if state.entries[key] == nil {
                if state.entries.count >= capacity { Self.evict(&state, capacity: capacity) }
                state.insertionOrder.append(key)
            }
            state.entries[key] = Entry(token: token, validUntil: validUntil)
        }
    }

    /// Drops the oldest insertions until there is room: O(1) per insert.
    /// (Sweeping every expired entry here would cost O(capacity) on each
    /// insert once full, exactly when distinct tokens arrive fastest.)
    private static func evict(_ state: inout State, capacity: Int) {
        while state.entries.count >= capacity, let oldest = state.insertionOrder.popFirst() {
            state.entries[oldest] = nil
        }
        // Keys of entries dropped on expiry linger in the order; keep it proportional.
        if state.insertionOrder.count > 2 * capacity {
            let entries = state.entries
            state.insertionOrder = CircularBuffer(state.insertionOrder.filter { entries[$0] != nil })
        }
    }
}
