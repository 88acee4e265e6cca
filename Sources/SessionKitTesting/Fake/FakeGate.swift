/// A gate a test holds shut to keep requests waiting, then opens. No sleeping.
///
/// ```swift
/// let gate = FakeGate()
/// await fake.inject(.hold(gate), on: .refresh)
/// async let token = client.accessToken()
/// await gate.waitForArrivals(1)   // the refresh request reached the server
/// await gate.open()
/// ```
public actor FakeGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// How many requests reached the gate so far.
    public private(set) var arrivals = 0

    public init() {}

    /// Called by the fake backend: counts an arrival and waits until the gate is open.
    public func pass() async {
        arrivals += 1
        let ready = arrivalWaiters.filter { $0.count <= arrivals }
        arrivalWaiters.removeAll { $0.count <= arrivals }
        ready.forEach { $0.continuation.resume() }
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Lets every waiting and future request through.
    public func open() {
        isOpen = true
        let waiting = waiters
        waiters = []
        waiting.forEach { $0.resume() }
    }

    /// Returns once at least `count` requests have reached the gate.
    public func waitForArrivals(_ count: Int = 1) async {
        if arrivals >= count { return }
        await withCheckedContinuation { arrivalWaiters.append((count, $0)) }
    }
}
