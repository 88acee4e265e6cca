import Foundation
import Logging

/// Hearing the other processes that share the store (docs/PROTOCOL.md,
/// "Hearing other processes"): on each notification, re-read under rule A
/// and publish what changed.
extension SessionClient {
    /// Starts listening to the store's ``SessionStore/changeNotifier``, once
    /// per client, with the lifecycle's observation (first use to shutdown).
    nonisolated func startObservingStoreChanges() {
        guard let notifier = configuration.store.changeNotifier else { return }
        let states = self.states
        let client = WeakClient(self)
        LifecycleObservations.storeChanges.start(for: self) {
            let changes = notifier.changes()
            // What was written between this client's first read and the subscription: read once now.
            await client.value?.storeDidChange()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    // The state stream finishes at shutdown: so does the listening.
                    for await _ in states {}
                }
                group.addTask {
                    // Buffered to the newest: a flood while a re-read runs is one more re-read.
                    for await _ in changes {
                        guard let client = client.value else { return }
                        await client.storeDidChange()
                    }
                }
                _ = await group.next()
                group.cancelAll()
            }
        }
    }

    /// Stops listening (at shutdown).
    nonisolated func stopObservingStoreChanges() {
        LifecycleObservations.storeChanges.stop(for: self)
    }

    /// Another process wrote the store: re-read it and take in what moved
    /// forward (rule A), never refresh. A record of a newer sign-in is
    /// adopted; a record gone is the other process's sign-out, published here.
    func storeDidChange() async {
        guard !isShutDown else { return }
        // The launch read in progress decides first; this re-read follows it.
        await waitForRunningRestore()
        guard hasRestored, restoreTask == nil else { return }
        guard let session = current else {
            await adoptSignInElsewhere()
            return
        }
        switch await adoptStoredSessionIfNewer(than: session, generation: generation) {
        case .adopted, .signedOutElsewhere, .unchanged:
            break
        case .unreadable(let error):
            // The in-memory session stays the authority; the next notification or use reads again.
            logger.debug("A change notification's re-read failed", metadata: ["reason": "\(error)"])
        }
    }

    /// Signed out here: a session another process signed in is read as a
    /// second ``restore()`` reads it, only when the record is newer than any seen.
    private func adoptSignInElsewhere() async {
        let read: StoredSession?? = await withStoreAccess {
            do throws(SessionStoreError) {
                return .some(try await store.load())
            } catch {
                // Unreadable now: nothing is adopted; the next notification or use reads again.
                logger.debug("A change notification's re-read failed", metadata: ["reason": "\(error)"])
                return .none
            }
        }
        guard case .some(.some(let record)) = read, record.holdsSession, record.sequence > lastSeenSequence,
            current == nil
        else { return }
        logger.info("Another process signed in; reading its session")
        do {
            try await restore()
        } catch {
            logger.warning("The session another process signed in could not be read", metadata: ["reason": "\(error.message)"])
        }
    }
}

extension LifecycleObservations {
    /// Each client's one store-change listening task.
    static let storeChanges = LifecycleObservations()
}
