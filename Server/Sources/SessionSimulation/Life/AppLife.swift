import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitTesting
import SessionServer

/// One app life over simulated days: sign in, uses at random times with the
/// app suspended in between (no timers), offline windows, kills and
/// relaunches, an extension sharing the store, a skewed device clock, and for
/// some lives a genuine end. Everything random comes from the life's seed.
final class AppLife {
    let world: SimulationWorld
    let parameters: SimulationParameters
    var random: SplitMix64
    let deviceClock: ManualClock
    let network: DeviceNetwork
    let directory: URL
    let tally: EventTally
    /// The field rows' state (issue 31: a stale JWKS, old GoTrue, the targeted widget).
    let field = FieldLife()
    let hasExtension: Bool
    let endsAt: Double?
    var report: LifeReport

    /// The app process, nil while it is not running (killed, not yet relaunched).
    var app: AppProcess?
    var ended = false
    /// Seconds since the life began (server time).
    var elapsed: Double = 0
    var offlineUntil: Double = -1
    /// The device's disruption count the life last saw, and when it saw it change.
    var disruptionsSeen = 0
    var lastDisruptionAt = -Double.infinity
    let email: String
    let password = "sim-password-9"
    var sessionID: String?
    /// The person's id and verified factor, in a life with a second factor.
    var userID: String?
    var factorID: String?
    let hasSecondFactor: Bool
    /// Set once the server revoked the family for reuse: whether a lost answer explains it.
    var reuseExplainedByLostAnswer: Bool?
    /// Processes launched so far (names them in the trace).
    var launches = 0
    /// Whether the next request to the API goes to its own origin (``AppAPIOrigin``).
    var appOriginTurn = false
    /// App requests made so far: each one's id for the stale-JWKS row (`makeRequest()`).
    var requestsMade = 0
    /// The one 401 the app's origin answers in this life (targeted world, issue 44).
    let appOriginRejection = AppOriginRejection()
    /// The person of an anonymous life (issue 40, item 6), nil in other lives.
    var anonymousPerson: AnonymousPerson?
    /// The device's key of a DPoP life (issue 43, item 11), nil in other lives.
    var dpopDevice: DPoPDevice?
    var trace: LifeTrace { network.trace }

    init(index: Int, parameters: SimulationParameters, world: SimulationWorld) {
        let seed = SplitMix64.lifeSeed(runSeed: parameters.seed, life: index)
        var random = SplitMix64(seed: seed)
        self.world = world
        self.parameters = parameters
        let largeSkew = random.chance(parameters.largeSkewShare)
        let bound = largeSkew ? parameters.maximumLargeSkew : parameters.maximumSkew
        let skew = random.uniform(-bound...bound)
        self.deviceClock = ManualClock(start: world.serverClock.now.addingTimeInterval(skew))
        // A DPoP life's server always sends `Date`: without it a device off the server's clock
        // can make no proof the server accepts (no server nonces yet, docs/DPOP.md). Still
        // drawn, so the life's stream stays as it was.
        let makesProofs = DPoPDevice.isDrawn(lifeSeed: seed, parameters: parameters)
        let sendsDate = !random.chance(parameters.noDateShare) || makesProofs
        self.network = DeviceNetwork(
            seed: random.next(), faultRate: parameters.faultRate,
            menu: parameters.intermediaryFaults ? Fault.allCases : Fault.classic, sendsDate: sendsDate)
        self.tally = EventTally(trace: network.trace)
        self.hasExtension = random.chance(parameters.extensionShare)
        var ending: Ending?
        var endsAt: Double?
        if random.chance(parameters.endedShare) {
            ending = Ending.allCases[Int(random.next() % UInt64(Ending.allCases.count))]
            endsAt = random.uniform(2 * 86_400...max(2 * 86_400, (parameters.days - 2) * 86_400))
        }
        self.endsAt = endsAt
        // Drawn only when asked for: a run without second factors keeps every life's plan.
        self.hasSecondFactor = parameters.secondFactorShare > 0 && random.chance(parameters.secondFactorShare)
        self.random = random
        self.email = "life\(index)-\(seed)@sim.test"
        self.directory = Self.storageRoot.appendingPathComponent("sessionkit-sim-\(seed)-\(UUID().uuidString)", isDirectory: true)
        self.report = LifeReport(index: index, seed: seed, ending: ending)
        if !hasSecondFactor, !signsInWithPasskey, AnonymousPerson.startsAnonymously(lifeSeed: seed, parameters: parameters) {
            anonymousPerson = AnonymousPerson(lifeSeed: seed, days: parameters.days)
        }
        if makesProofs { dpopDevice = DPoPDevice() }
        network.trace.watch(device: deviceClock, server: world.serverClock)
        trace.note("life \(index): device clock \(String(format: "%+.0f", skew)) s off, Date \(sendsDate ? "sent" : "not sent"), extension \(hasExtension), ending \(ending?.rawValue ?? "none")\(endsAt.map { String(format: " at day %.3f", $0 / 86_400) } ?? "")")
    }

    /// Runs the whole life and reports it.
    func run() async throws -> LifeReport {
        defer { removeDirectory() }
        let signedIn = try await signInUnlessEveryProofIsRefused {
            if signsInWithPasskey {
                try await signInWithPasskey()
            } else if anonymousPerson != nil {
                try await signInAnonymously()
            } else {
                try await signUp()
            }
        }
        guard signedIn else { return report }
        let horizon = parameters.days * 86_400
        var usesAfterEnd = 0
        while true {
            let gap = min(random.exponential(mean: 86_400 / parameters.usesPerDay), 3 * 86_400) + 30
            if let endsAt, !ended, elapsed + gap >= endsAt {
                background(endsAt - elapsed)
                try await endSession()
            } else {
                background(gap)
            }
            if !ended, elapsed >= horizon { break }
            if random.chance(parameters.clockChangeChance) {
                // A person sets the phone's clock, or travels: hours either way, while the app is suspended.
                deviceClock.set(to: deviceClock.now.addingTimeInterval(random.uniform(-12 * 3600...12 * 3600)))
                trace.note("device clock changed")
                network.clockChanged()
                report.clockChanges += 1
            }
            if !ended, random.chance(parameters.offlineChance) {
                offlineUntil = elapsed + random.logUniform(120...(3 * 86_400))
                trace.note(String(format: "offline until day %.4f", offlineUntil / 86_400))
                report.offlineWindows += 1
            }
            network.isOffline = elapsed < offlineUntil
            if let app, random.chance(parameters.backgroundKillChance) {
                trace.note("\(app.process.label) killed in the background")
                await app.kill()
                self.app = nil
                report.backgroundKills += 1
            }
            if !ended { try await fieldEventsBeforeUse() }
            try await anonymousEventsBeforeUse()
            try await use()
            try await checkAnonymousAccount()
            try await checkAssurance(app)
            try await dropLevelIfSabotaged()
            if ended {
                usesAfterEnd += 1
                // Keep using the app until the end is seen, then once more (a second message would be a defect).
                if app?.client.currentState.isSignedIn == false || usesAfterEnd >= 8 {
                    try await use()
                    break
                }
            }
        }
        checkPasskeyAMR()
        try await finalCheck()
        return report
    }

    // MARK: - Clocks

    /// Time passes with the app suspended: both clocks jump, no timer runs.
    func background(_ seconds: Double) {
        guard seconds > 0 else { return }
        noteDisruptions()
        trace.note(String(format: "suspended for %.0f s", seconds))
        elapsed += seconds
        trace.advance(to: elapsed)
        world.serverClock.set(to: world.serverClock.now.addingTimeInterval(seconds))
        deviceClock.set(to: deviceClock.now.addingTimeInterval(seconds))
    }

    /// Time passes in the foreground: timers due by then fire, and their
    /// requests finish before the simulation moves on.
    func foreground(_ seconds: Double) async {
        trace.note(String(format: "foreground for %.0f s", seconds))
        elapsed += seconds
        trace.advance(to: elapsed)
        // Both clocks move together, a step at a time: moving the server's to
        // the end at once let a timer that fired mid-advance read a `Date` up to
        // 90 s ahead of the device's time, which no real server answers (a DPoP
        // proof dated from that estimate was then refused; docs/RELIABILITY.md,
        // "DPoP lives").
        var left = seconds
        while left > 0 {
            let step = min(left, Self.foregroundStep)
            left -= step
            world.serverClock.set(to: world.serverClock.now.addingTimeInterval(step))
            await deviceClock.advance(by: step)
            await settle()
        }
        noteDisruptions()
    }

    /// The largest step of `foreground`: under the server's 60 s leeway for a proof's `iat`.
    static let foregroundStep = 15.0

    /// Waits until no request of this device is on the wire for a few rounds.
    func settle() async {
        var quietRounds = 0
        while quietRounds < 3 {
            for _ in 0..<16 { await Task.yield() }
            if network.requestsInFlight == 0 {
                quietRounds += 1
            } else {
                quietRounds = 0
                do { try await Task.sleep(nanoseconds: 100_000) } catch { return }
            }
        }
    }

    /// Stores live in memory-backed `/dev/shm` when there is one: every life
    /// saves hundreds of times, and the simulation tests the logic around the
    /// store (locks, renames, kills), not the disk's fsync latency.
    static let storageRoot: URL = {
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: shm.path, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: shm.path)
        {
            return shm
        }
        return FileManager.default.temporaryDirectory
    }()

    private func removeDirectory() {
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            // A leftover temporary directory costs disk only; the figures stand.
        }
    }
}
