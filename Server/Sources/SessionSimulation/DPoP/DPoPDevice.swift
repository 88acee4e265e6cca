import Foundation
import SessionKit
import SessionKitTesting

/// The device of a DPoP life (issue 43, item 11; docs/RELIABILITY.md, "DPoP
/// lives"): one keychain for every process of the life, as a phone's keychain
/// is shared by the app and its extension, holding the one key the session is
/// bound to (a `ThisDeviceOnly` item, `KeychainDPoPKeyStore`).
struct DPoPDevice: Sendable {
    let keychain = InMemoryKeychain()

    /// What each process of the life configures: proofs signed by the device's key.
    var configuration: DPoPConfiguration { DPoPConfiguration(keyStore: KeychainDPoPKeyStore(keychain: keychain)) }

    /// Whether the life with `lifeSeed` proves possession of a key: drawn apart
    /// from its stream, as an anonymous life is, so other lives replay as before.
    static func isDrawn(lifeSeed: UInt64, parameters: SimulationParameters) -> Bool {
        // The planted defect shows only in lives that make proofs, so it makes every life one.
        if parameters.sabotage == .client(.dpopIATFromDeviceClock) { return true }
        guard parameters.dpopShare > 0 else { return false }
        // Mixed twice, as `AnonymousPerson` does: seeds one XOR apart draw alike at first.
        var mixer = SplitMix64(seed: lifeSeed ^ 0x4450_6F50_3433_4C46)
        var draw = SplitMix64(seed: mixer.next())
        return draw.chance(parameters.dpopShare)
    }
}

extension Sabotage {
    /// The client plant `dpop-iat-from-device-clock` (issue 43).
    static let dpopIATFromDeviceClock = Sabotage(name: "dpop-iat-from-device-clock")!
}
