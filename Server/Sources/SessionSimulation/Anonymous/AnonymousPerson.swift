import Foundation

/// The person of an anonymous life (issue 40, item 6; docs/RELIABILITY.md,
/// "Anonymous lives"): when, if ever, they add a confirmed email, and
/// the session-ending paths the harness puts in their way besides the
/// network's faults: an API that answers `AUTH_REQUIRED` to a token that
/// worked a moment ago, and a store that refuses a save.
///
/// Every draw comes from a generator of its own, seeded from the life's seed,
/// so anonymous lives leave the life's own stream, and so every other life,
/// as they were.
final class AnonymousPerson: @unchecked Sendable {
    // `@unchecked`: the mutable fields are touched under `lock` only (the
    // transport's tasks and the life's steps both reach them).
    private let lock = NSLock()
    private var random: SplitMix64
    private var permanent = false
    private var pendingWriteRefusal = false
    private var authRequiredAnswers = 0
    private var writeRefusals = 0
    private var lastingAnswers = 0
    private var unexplained401s = 0
    /// Seconds into the life when the person adds a confirmed email; nil: never.
    let permanentAt: Double?

    /// Share of anonymous lives that become permanent later.
    static let permanentShare = 0.5
    /// Per app API request carrying a token the API has already accepted: answered `AUTH_REQUIRED` instead.
    static let authRequiredChance = 0.25
    /// Per use: the store refuses the next save.
    static let writeRefusalChance = 0.15

    init(lifeSeed: UInt64, days: Double) {
        // Mixed once more (here and in the draw below): the first outputs of seeds one XOR
        // apart fell below one half too rarely in Swift's `Double.random` (2 of 12 lives of
        // two test seeds; 17 of 24 lives anonymous at a share of 0.5).
        var mixer = SplitMix64(seed: lifeSeed ^ 0x414E_4F4E_3430_5550)
        var random = SplitMix64(seed: mixer.next())
        permanentAt = random.chance(Self.permanentShare) ? random.uniform(86_400...max(86_400, (days - 1) * 86_400)) : nil
        self.random = random
    }

    /// Whether the life with `lifeSeed` starts anonymously: drawn apart from its stream, as a passkey life is.
    static func startsAnonymously(lifeSeed: UInt64, parameters: SimulationParameters) -> Bool {
        // The planted defect needs anonymous lives to show, so it makes every life one.
        if parameters.sabotage == .anonymousSignedOutOnTransient { return true }
        guard parameters.anonymousShare > 0 else { return false }
        var mixer = SplitMix64(seed: lifeSeed ^ 0x414E_4F4E_594D_3430)
        var draw = SplitMix64(seed: mixer.next())
        return draw.chance(parameters.anonymousShare)
    }

    /// Still anonymous: no email, no password, no way back in if the session goes.
    var isAnonymous: Bool { lock.withLock { !permanent } }

    func becamePermanent() { lock.withLock { permanent = true } }

    /// Draws whether this use's next save is refused.
    func drawWriteRefusal() -> Bool {
        lock.withLock {
            if random.chance(Self.writeRefusalChance) { pendingWriteRefusal = true }
            return pendingWriteRefusal
        }
    }

    /// Called by the store on each save: true once after a refusal was drawn.
    func takeWriteRefusal() -> Bool {
        lock.withLock {
            guard pendingWriteRefusal else { return false }
            pendingWriteRefusal = false
            writeRefusals += 1
            return true
        }
    }

    /// Called by the API for a request whose token it accepted before.
    func drawAuthRequired() -> Bool {
        lock.withLock {
            guard random.chance(Self.authRequiredChance) else { return false }
            authRequiredAnswers += 1
            return true
        }
    }

    /// Of the glitches while anonymous: the share that refuses the retry's fresh token too.
    static let lastingShare = 0.5

    func drawLasting() -> Bool { lock.withLock { random.chance(Self.lastingShare) } }

    /// A lasting glitch refused a fresh token: the app may see that 401 (the API's own answer).
    func lastingGlitchAnswered() {
        lock.withLock {
            lastingAnswers += 1
            unexplained401s += 1
        }
    }

    /// Takes one 401 a lasting glitch explains, if any is left.
    func takeExplained401() -> Bool {
        lock.withLock {
            guard unexplained401s > 0 else { return false }
            unexplained401s -= 1
            return true
        }
    }

    var counts: (authRequired: Int, lasting: Int, writeRefusals: Int) {
        lock.withLock { (authRequiredAnswers, lastingAnswers, writeRefusals) }
    }
}
