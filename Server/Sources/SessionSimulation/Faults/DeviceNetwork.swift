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
    private var injectedOnRefresh: [Fault: Int] = [:]
    private var killResets = 0
    private var cancelledDraws: [Fault: Int] = [:]
    private var requests = 0
    private let menu: [Fault]
    /// The processes that know the server's clock: each learns it from an
    /// answer with `Date`, or from a record a knowing process wrote.
    private var knowing: Set<String> = []
    /// Whether the store's record carries the current offset.
    private var storeKnows: Bool
    private var expiredSent = 0
    private var disrupted = 0
    private var cleanTimeouts = 0

    /// - Parameters:
    ///   - faultRate: the probability that a request meets a fault.
    ///   - menu: the faults drawn from.
    ///   - sendsDate: whether the server's answers carry `Date` (else the client cannot know its clock).
    public init(seed: UInt64, faultRate: Double, menu: [Fault] = Fault.classic, sendsDate: Bool = true) {
        self.generator = SplitMix64(seed: seed)
        self.faultRate = faultRate
        self.menu = menu
        // Nothing is known before the first answer: the sign-up's process learns
        // the clock from its answer, and its save stamps the record with it. (A
        // DPoP sign-up's first proof is a guess, issue 43.)
        self.storeKnows = false
        self.sendsDate = sendsDate
    }

    /// Whether the server's answers carry `Date`.
    public let sendsDate: Bool

    /// The refresh answers this device lost, to trace a logout on a server without successor recovery.
    let answers = RotationAnswers()

    /// The server's refusals of this device's DPoP proofs for their `iat` (issue 43).
    let proofRefusals = ProofRefusals()

    /// The life's last steps, for a failure that does not replay alone.
    let trace = LifeTrace()

    /// Access tokens the server already considered expired, sent by a process
    /// that could have known: it had an answer with `Date` since the last
    /// clock change, or restored a record a knowing process wrote since.
    /// Per process: one process's answer does not teach another, which reads
    /// the store only when it refreshes.
    public var expiredTokensSent: Int { lock.withLock { expiredSent } }

    /// The device clock was changed: every estimate, and the store's, may be stale.
    func clockChanged() { lock.withLock { knowing.removeAll(); storeKnows = false } }

    /// A process launched and restored the store: it knows what the record knows.
    func launched(_ process: SimulatedProcess) {
        lock.withLock { if storeKnows { knowing.insert(process.label) } }
    }

    /// An answer arrived: its `Date` (if any) tells this process the server's clock again.
    func answered(_ process: SimulatedProcess) { lock.withLock { if sendsDate { knowing.insert(process.label) } } }

    /// Whether `process` knows the server's clock now (see ``expiredTokensSent``).
    func knowsClock(_ process: SimulatedProcess) -> Bool { lock.withLock { knowing.contains(process.label) } }

    /// A process wrote the record, stamped with its own estimate.
    func saved(by process: SimulatedProcess) { lock.withLock { storeKnows = knowing.contains(process.label) } }

    /// Counts a request whose access token had expired on the server's clock, if its process could have known.
    func sentToken(expiringAt exp: Date, serverNow: Date, by process: SimulatedProcess) {
        lock.withLock { if knowing.contains(process.label), exp <= serverNow { expiredSent += 1 } }
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

    /// The faults drawn for refresh requests (the coverage floors count these).
    public var refreshFaults: [Fault: Int] { lock.withLock { injectedOnRefresh } }

    /// Mid-refresh kills that sent a refresh through the proxy with a reset (not a drawn fault).
    public var killResetsSent: Int { lock.withLock { killResets } }

    /// Every fault injected, request refused while offline and kill reset on
    /// this device so far: what can explain a transient failure.
    public var disruptions: Int { lock.withLock { disrupted } }

    /// Requests that met no fault and still timed out: the machine was too
    /// busy to answer within the simulated apps' 1 s timeout. A disruption
    /// like any other (the SDK rightly calls it a network failure), counted
    /// apart so a rise shows.
    public var timeoutsWithoutFault: Int { lock.withLock { cleanTimeouts } }

    func timedOutWithoutFault() { lock.withLock { cleanTimeouts += 1; disrupted += 1 } }

    /// The server itself failed a request (a field row's outage): a disruption like a fault.
    func serverFailed() { lock.withLock { disrupted += 1 } }

    /// A request refused because the device is offline.
    func refusedOffline() { lock.withLock { disrupted += 1 } }

    func countOnRefresh(_ fault: Fault) { lock.withLock { injectedOnRefresh[fault, default: 0] += 1 } }
    func countKillReset() { lock.withLock { killResets += 1; disrupted += 1 } }
    func countCancelledDraw(_ fault: Fault) { lock.withLock { cancelledDraws[fault, default: 0] += 1 } }

    /// Drawn faults whose request was cancelled (its process killed): it may
    /// or may not have reached the proxy before the cancellation.
    public var cancelledFaultDraws: [Fault: Int] { lock.withLock { cancelledDraws } }

    func begin() { lock.withLock { inFlight += 1; requests += 1 } }
    func end() { lock.withLock { inFlight -= 1 } }

    /// The fault for the next request, if any.
    func drawFault() -> Fault? {
        lock.withLock {
            guard generator.chance(faultRate) else { return nil }
            let fault = menu[Int(generator.next() % UInt64(menu.count))]
            injected[fault, default: 0] += 1
            disrupted += 1
            return fault
        }
    }

}
