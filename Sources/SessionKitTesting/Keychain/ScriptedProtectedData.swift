import SessionKit

/// Protected-data availability a test sets: a device restarted and not
/// unlocked yet, one that the person unlocks while the store waits, or one
/// that stays locked.
///
/// Waits never sleep: a wait ends at once, unlocked or not as scripted, and
/// records the bound it was given.
///
/// ```swift
/// let protectedData = ScriptedProtectedData(isAvailable: false)
/// await protectedData.unlockWhenWaitedOn { keychain.unlock() }
/// ```
public actor ScriptedProtectedData: ProtectedDataAvailability {
    private var available: Bool
    private var unlocksOnWait = false
    private var onUnlock: (@Sendable () -> Void)?
    /// The bound of every wait so far, in order.
    public private(set) var waits: [Duration] = []

    /// - Parameter isAvailable: whether protected data is readable at first.
    public init(isAvailable: Bool = true) {
        self.available = isAvailable
    }

    /// Sets whether protected data is readable now.
    public func setAvailable(_ available: Bool) {
        self.available = available
    }

    /// Makes the next wait see the person unlock the device: `action` runs
    /// (unlock the fake keychain there), then protected data is available.
    public func unlockWhenWaitedOn(then action: (@Sendable () -> Void)? = nil) {
        unlocksOnWait = true
        onUnlock = action
    }

    public var isAvailable: Bool { available }

    public func waitUntilAvailable(timeout: Duration) async -> Bool {
        waits.append(timeout)
        if !available, unlocksOnWait {
            unlocksOnWait = false
            onUnlock?()
            onUnlock = nil
            available = true
        }
        return available
    }
}
