import Foundation
import Logging
import SessionCore

/// Keeps the store's server clock offset current when the device clock moves.
///
/// The record carries the offset it was written with, so a new process does
/// not trust a device clock that may be hours off (docs/PROTOCOL.md, "The
/// server's clock"). A person who sets the clock makes that offset stale; the
/// running app learns the new one from the next `Date`, but nothing was
/// written until the next refresh, and a launch in between sent an access
/// token the server had already expired (docs/RELIABILITY.md, "What the
/// full-size adversarial run found").
extension SessionClient {
    /// Writes the current record again with the offset just learned, when it
    /// differs from the stored one by more than the leeway.
    ///
    /// Optional work: it never waits out another process's lock or a write
    /// of its own, and touches only a record that still holds this session.
    func recordMovedClockOffset() async {
        guard let session = current, machine.offset.isKnown, inflight == nil, pendingWrite == nil else { return }
        let leeway = machine.leeway(for: session)
        let gen = generation
        // No wait for the lock: its holder is refreshing, and will write the offset itself.
        let update = await updateRecord("recording the server clock offset", lock: .ifFree) { stored in
            guard gen == generation, current?.refreshToken == session.refreshToken, pendingWrite == nil else { return nil }
            guard let stored, stored.holdsSession, stored.refreshToken == session.refreshToken else { return nil }
            if let recorded = stored.serverClockOffset, abs(recorded - machine.offset.seconds) <= leeway { return nil }
            return stamped(stored)
        }
        switch update {
        case .saved:
            logger.info("Recorded the moved server clock offset", metadata: ["seconds": "\(Int(machine.offset.seconds))"])
        case .unreadable(let error):
            logger.notice("The store could not be read to record the server clock offset", metadata: ["reason": "\(error)"])
        case .unwritable(let error):
            // The record still holds the session; only its offset is stale, as before.
            logger.notice("The server clock offset could not be recorded", metadata: ["reason": "\(error)"])
        case .unchanged:
            break
        }
    }
}
