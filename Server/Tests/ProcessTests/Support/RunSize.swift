import Foundation

/// Sizes and seeds of the process tests: CI-sized by default, full size by
/// environment (docs/RELIABILITY.md lists the full-size commands).
enum RunSize {
    static func integer(_ name: String, default value: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? value
    }

    /// `SESSIONKIT_CRASH_KILLS`: kill -9 rounds (CI 100, full 500+).
    static var crashKills: Int { integer("SESSIONKIT_CRASH_KILLS", default: 100) }
    /// `SESSIONKIT_CRASH_SEED`: seed of the kill moments.
    static var crashSeed: UInt64 { UInt64(integer("SESSIONKIT_CRASH_SEED", default: 20_261_122)) }
    /// `SESSIONKIT_EXPIRIES`: access token expiries the shared store goes through (CI 3, full 100+).
    static var expiries: Int { integer("SESSIONKIT_EXPIRIES", default: 3) }
    /// `SESSIONKIT_PROCESS_CHAOS_KILLS`: kill rounds per life in `ProcessChaosTests` (CI 20).
    static var processChaosKills: Int { integer("SESSIONKIT_PROCESS_CHAOS_KILLS", default: 20) }
    /// `SESSIONKIT_PROBES`: processes sharing the store at each expiry (at least 8).
    static var probes: Int { integer("SESSIONKIT_PROBES", default: 8) }
}

/// SplitMix64: a tiny seeded generator, so a failing run can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
