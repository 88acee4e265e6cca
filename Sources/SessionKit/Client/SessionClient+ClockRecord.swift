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
        let lock: any SessionStoreLock
        do {
            // No wait: the lock's holder is refreshing, and will write the offset itself.
            lock = try await store.lockForRefresh(waitingAtMost: 0)
        } catch {
            return
        }
        await withStoreAccess {
            guard gen == generation, current?.refreshToken == session.refreshToken, pendingWrite == nil else { return }
            let stored: StoredSession?
            do {
                stored = try await store.load()
            } catch {
                logger.notice("The store could not be read to record the server clock offset", metadata: ["reason": "\(error)"])
                return
            }
            guard let stored, stored.holdsSession, stored.refreshToken == session.refreshToken else { return }
            if let recorded = stored.serverClockOffset, abs(recorded - machine.offset.seconds) <= leeway { return }
            var record = stamped(stored)
            record.sequence = nextSequence(after: stored)
            do throws(SessionStoreError) {
                try await store.save(record)
                noteWritten(record)
                logger.info("Recorded the moved server clock offset", metadata: ["seconds": "\(Int(machine.offset.seconds))"])
            } catch {
                // The record still holds the session; only its offset is stale, as before.
                logger.notice("The server clock offset could not be recorded", metadata: ["reason": "\(error)"])
            }
        }
        await lock.unlock()
    }
}
