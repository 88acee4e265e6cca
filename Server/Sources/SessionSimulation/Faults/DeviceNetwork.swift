import Foundation

/// The network one simulated device sees: offline or not, and which faults
/// hit its requests (drawn from a seeded generator). Shared by every process
/// on the device (the app and its extension).
public final class DeviceNetwork: @unchecked Sendable {
    private let lock = NSLock()
    private var generator: SplitMix64
    private var faultRate: Double
    private var offline = false
    private var inFlight = 0
    private var injected: [Fault: Int] = [:]
    private var requests = 0

    /// - Parameter faultRate: the probability that a request meets a fault.
    public init(seed: UInt64, faultRate: Double) {
        self.generator = SplitMix64(seed: seed)
        self.faultRate = faultRate
    }

    public var isOffline: Bool {
        get { lock.withLock { offline } }
        set { lock.withLock { offline = newValue } }
    }

    /// Turns fault injection off (the final check of a life runs on a clean network).
    public func setFaultRate(_ rate: Double) { lock.withLock { faultRate = rate } }

    /// Whether requests may meet faults now (false on the clean network of sign-up and the final check).
    public var injectsFaults: Bool { lock.withLock { faultRate > 0 } }

    /// Requests being answered right now, on any process of the device.
    public var requestsInFlight: Int { lock.withLock { inFlight } }

    /// How many times each fault was injected.
    public var injectedFaults: [Fault: Int] { lock.withLock { injected } }

    /// Requests that went through the network (faulty or not).
    public var requestCount: Int { lock.withLock { requests } }

    func begin() { lock.withLock { inFlight += 1; requests += 1 } }
    func end() { lock.withLock { inFlight -= 1 } }

    /// The fault for the next request, if any.
    func drawFault() -> Fault? {
        lock.withLock {
            guard generator.chance(faultRate) else { return nil }
            let fault = Fault.allCases[Int(generator.next() % UInt64(Fault.allCases.count))]
            injected[fault, default: 0] += 1
            return fault
        }
    }

    func count(_ fault: Fault) { lock.withLock { injected[fault, default: 0] += 1 } }
}
