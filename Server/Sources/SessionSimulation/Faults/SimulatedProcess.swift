import Foundation

/// One simulated process (an app launch or an extension launch). Killing it
/// cuts its network and its disk at once: whatever it does afterwards never
/// reaches the server or the store, as if the OS had ended it at that point.
public final class SimulatedProcess: @unchecked Sendable {
    private let lock = NSLock()
    private var dead = false
    private var loseNextRefreshResponse = false
    private var crashOnNextSave = false
    private var refreshKillFired = false
    private var saveKillFired = false

    /// Who this process is in a life's trace ("app 3", "extension 4").
    public let label: String

    public init(label: String = "process") {
        self.label = label
    }

    public var isDead: Bool { lock.withLock { dead } }

    /// Kills the process now.
    public func kill() { lock.withLock { dead = true } }

    /// The next refresh request reaches the server (which rotates), then the
    /// process dies before the response arrives: killed mid-refresh.
    public func killDuringNextRefresh() { lock.withLock { loseNextRefreshResponse = true } }

    /// The next store write dies before its rename: killed mid-write.
    public func killDuringNextSave() { lock.withLock { crashOnNextSave = true } }

    /// Whether an armed mid-refresh kill fired (a refresh reached the wire),
    /// and whether an armed mid-write kill fired (a save reached the rename):
    /// a kill is counted only when it fired.
    public var firedKills: (refresh: Bool, save: Bool) { lock.withLock { (refreshKillFired, saveKillFired) } }

    /// Consumes the mid-refresh kill, if armed.
    func takeRefreshKill() -> Bool {
        lock.withLock {
            defer { loseNextRefreshResponse = false }
            if loseNextRefreshResponse { refreshKillFired = true }
            return loseNextRefreshResponse
        }
    }

    /// Consumes the mid-write kill, if armed, killing the process.
    func takeSaveKill() -> Bool {
        lock.withLock {
            guard crashOnNextSave else { return false }
            crashOnNextSave = false
            dead = true
            saveKillFired = true
            return true
        }
    }
}
