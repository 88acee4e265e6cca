/// What happened in one app life: the invariant counters (each must be 0,
/// except `sessionExpiredEvents`, which must be 1 for an ended life and 0
/// otherwise) and activity figures.
public struct LifeReport: Sendable {
    public var index: Int
    public var seed: UInt64
    public var ending: Ending?

    // Invariants.
    /// Signed out (`sessionExpired` or `signedOut`) while the server still held the family.
    public var spuriousLogouts = 0
    /// Relaunches or the final check that found no usable session in the store.
    public var lostSessions = 0
    /// Families the server revoked for reuse (nobody but the client held them).
    public var reuseDetections = 0
    /// `sessionExpired` events seen by the app and its extension.
    public var sessionExpiredEvents = 0
    /// App requests that failed as 401 while the session was valid.
    public var unauthorizedWhileValid = 0
    /// An ended life whose final relaunch still came up signed in.
    public var signedInAfterEnd = 0
    /// App requests answered `notSignedIn` in a life not ended, with no logout or lost store to explain it.
    public var notSignedInWhileLive = 0
    /// Access tokens sent after the server's `exp` by a process that could have
    /// known the server's clock (its own answer with `Date`, or a record a
    /// knowing process wrote, since the last clock change).
    public var expiredTokensSent = 0
    /// App requests that failed transiently although nothing disrupted the
    /// device's network (no fault injected, no request refused offline, no
    /// kill) since the app's last request that succeeded.
    public var unexplainedTransients = 0
    /// What the SDK said for the first few of them.
    public var unexplainedSamples: [String] = []
    /// On a server without successor recovery only: logouts from a family the
    /// server revoked because a rotation's answer was lost (not a violation
    /// there; counted apart, see `RotationAnswers`).
    public var lostAnswerLogouts = 0
    /// A passkey life whose final access token did not carry `amr` method `passkey` (docs/PASSKEYS.md).
    public var passkeyAMRMissing = 0
    /// Times a life with a second factor found the app's access token, or the
    /// server's session, below `aal2` (issue 38, item 8).
    public var assuranceDrops = 0
    /// Whether this life enrolled a second factor.
    public var hasSecondFactor = false
    /// What an anonymous life did and lost (issue 40, item 6; ``AnonymousLifeReport``).
    public var anonymous: AnonymousLifeReport?
    /// What a DPoP life's proofs met (issue 43, item 11; ``DPoPLifeReport``).
    public var dpop: DPoPLifeReport?
    /// The device event this life played (issue 31, rows 5–10), if any.
    public var deviceEvent: DeviceEventReport?
    /// A failing life's last steps (see `LifeTrace`); empty for a life that held every invariant.
    public var trace: [String] = []

    // Activity.
    public var requests = 0
    public var requestFailuresTransient = 0
    public var relaunches = 0
    public var backgroundKills = 0
    public var midRefreshKills = 0
    public var midWriteKills = 0
    /// Mid-refresh kills that fired but after which the server had not rotated (the request died before committing).
    public var midRefreshKillsNotCommitted = 0
    public var extensionRuns = 0
    public var offlineWindows = 0
    public var clockChanges = 0
    public var refreshes = 0
    public var adoptions = 0
    public var transportRequests = 0
    /// Requests that met no fault and timed out all the same (a busy machine).
    public var timeoutsWithoutFault = 0
    public var faults: [Fault: Int] = [:]
    /// Faults drawn for refresh requests.
    public var refreshFaults: [Fault: Int] = [:]
    /// Refreshes a mid-refresh kill sent through the proxy with a reset.
    public var killResets = 0
    /// Drawn faults whose request was cancelled, so may never have reached the proxy.
    public var cancelledFaultDraws: [Fault: Int] = [:]
    public var simulatedDays = 0.0
    /// Sign-ins by passkey (``AppLife/signInWithPasskey()``): 1 in a passkey life.
    public var passkeySignIns = 0
    /// The field rows of issue 31 (a stale JWKS, …).
    public var field = FieldReport()

    init(index: Int, seed: UInt64, ending: Ending?) {
        self.index = index
        self.seed = seed
        self.ending = ending
    }

    /// A life that ended (for real, or by a lost answer on a server without
    /// recovery) must see exactly one `sessionExpired`; any other, none.
    public var expectsOneExpiry: Bool { ending != nil || lostAnswerLogouts > 0 }

    /// Every broken invariant, in words.
    public var violations: [String] {
        var found: [String] = []
        if spuriousLogouts > 0 { found.append("\(spuriousLogouts) spurious logout(s)") }
        if lostSessions > 0 { found.append("\(lostSessions) session(s) lost from the store") }
        if reuseDetections > 0 { found.append("\(reuseDetections) reuse detection(s)") }
        if unauthorizedWhileValid > 0 { found.append("\(unauthorizedWhileValid) request(s) failed as 401 while valid") }
        if notSignedInWhileLive > 0 { found.append("\(notSignedInWhileLive) request(s) answered notSignedIn while the session lived") }
        if signedInAfterEnd > 0 { found.append("still signed in after the session ended") }
        if assuranceDrops > 0 { found.append("\(assuranceDrops) time(s) the session was found dropped to aal1") }
        if unexplainedTransients > 0 { found.append("\(unexplainedTransients) transient failure(s) that no fault or offline window explains: \(unexplainedSamples)") }
        if passkeyAMRMissing > 0 { found.append("the passkey session's access token lost amr method passkey") }
        if expiredTokensSent > 0 { found.append("\(expiredTokensSent) expired access token(s) sent although the server's clock was known") }
        found += field.violations
        found += anonymous?.violations ?? []
        found += dpop?.violations ?? []
        found += deviceViolations
        let expected = expectsOneExpiry ? 1 : 0
        if sessionExpiredEvents != expected {
            found.append("\(sessionExpiredEvents) sessionExpired event(s), expected \(expected)")
        }
        return found
    }
}
