import Foundation
import SessionKit
import SessionServer

/// DPoP lives (issue 43, item 11; docs/RELIABILITY.md, "DPoP lives"): every
/// process of the life signs proofs with the device's one key, so the session
/// is bound from sign-up, and every refresh and API request meets the server's
/// checks under the run's faults, kills, clock changes and intermediaries.
extension AppLife {
    /// A process's DPoP configuration: the device's key store, nil outside DPoP lives.
    var dpopConfiguration: DPoPConfiguration? { dpopDevice?.configuration }

    /// Whether app requests may go to the app's own origin (issue 44). Not in a
    /// DPoP life: the simulated origin is the same gateway under another name,
    /// so a proof naming that origin (`htu`) is refused there, which a real
    /// API at its own origin would accept.
    var usesAppOrigin: Bool { dpopDevice == nil }

    /// Signs the person in with `signIn`; false when a DPoP life could not,
    /// because the server refused its proofs for their `iat` although the
    /// client knew its clock (the planted `dpop-iat-from-device-clock` on a
    /// device minutes off): the life ends there, reported, its invariant broken.
    func signInUnlessEveryProofIsRefused(_ signIn: () async throws -> Void) async throws -> Bool {
        do {
            try await signIn()
            return true
        } catch {
            guard dpopDevice != nil, network.proofRefusals.counts.whileKnown > 0 else { throw error }
            trace.note("no sign-in: the server refused the proofs for their iat (\(error))")
            try await finishDPoPLife()
            report.trace = trace.text
            return false
        }
    }

    /// The life's DPoP figures: the server's binding and the proofs refused for `iat`.
    func finishDPoPLife() async throws {
        guard dpopDevice != nil else { return }
        var dpop = DPoPLifeReport()
        if let sessionID, let record = try await world.server.store.session(id: sessionID) { dpop.bound = record.dpopJKT != nil }
        (dpop.iatRefusals, dpop.iatRefusalsWhileKnown) = network.proofRefusals.counts
        report.dpop = dpop
    }
}
