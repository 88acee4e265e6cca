import Crypto
import Foundation
import SessionKitTesting

/// The last steps of one life, in order: what the life did (uses, clock
/// jumps, kills), what each request met on the wire, and what each process
/// told the app. Kept for failing lives only.
///
/// A life's plan replays from its seed, but its timing does not: on a loaded
/// machine a request can outlast a real-time timeout, or still be on its way
/// when the life moves the clocks. A failure that happens only under load
/// does not come back alone with `--life N`; its trace is what is left to read.
/// Tokens appear as the first 6 hex digits of their SHA-256, never themselves.
final class LifeTrace: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var dropped = 0
    private let capacity: Int
    private var elapsed: Double = 0
    private var clocks: (device: ManualClock, server: ManualClock)?

    /// - Parameter capacity: how many of the latest lines to keep.
    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    /// The clocks whose difference every line shows (the device clock's error).
    func watch(device: ManualClock, server: ManualClock) {
        lock.withLock { clocks = (device, server) }
    }

    /// The life's time, in seconds since it began: every line shows its day.
    func advance(to elapsed: Double) {
        lock.withLock { self.elapsed = elapsed }
    }

    /// Adds a line, stamped with the life's day and the device clock's error.
    func note(_ line: @autoclosure () -> String) {
        lock.withLock {
            let error = clocks.map { $0.device.now.timeIntervalSince($0.server.now) } ?? 0
            lines.append(String(format: "[day %8.4f, device %+.0f s] ", elapsed / 86_400, error) + line())
            if lines.count > capacity {
                lines.removeFirst(lines.count - capacity)
                dropped += 1
            }
        }
    }

    /// A token as a trace shows it: the first 6 hex digits of its SHA-256.
    static func short(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).prefix(3).map { String(format: "%02x", $0) }.joined()
    }

    /// The kept lines, with a first line saying how many earlier ones were dropped.
    var text: [String] {
        lock.withLock { (dropped > 0 ? ["… \(dropped) earlier line(s) dropped"] : []) + lines }
    }
}
