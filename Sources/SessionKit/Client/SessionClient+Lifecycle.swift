import Foundation
import Logging

/// Following the app's lifecycle: `resume()` when the app becomes active, a
/// last save attempt when it goes to the background.
///
/// Observation starts lazily, with the client's first use (``restore()``,
/// or the launch read a first call such as ``accessToken()`` starts), never in `init`;
/// it ends with ``shutdown()`` (which also finishes the state stream the
/// observer watches), or when the app's event source ends.
extension SessionClient {
    /// Starts following ``SessionClientConfiguration/appLifecycle``, once per
    /// client, unless ``SessionClientConfiguration/observesAppLifecycle`` is off.
    nonisolated func startObservingLifecycle() {
        startObservingStoreChanges()
        guard configuration.observesAppLifecycle else { return }
        let source = configuration.appLifecycle
        // Subscribed here, synchronously: a client shut down before the task runs
        // hands it an already finished stream, and the task ends at once.
        let states = self.states
        // Weak: a client dropped without `shutdown()` is not kept alive by its observer.
        let client = WeakClient(self)
        LifecycleObservations.shared.start(for: self) {
            let events = await source.events()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    // The state stream finishes at shutdown: so does the observation.
                    for await _ in states {}
                }
                group.addTask {
                    for await event in events {
                        guard let client = client.value else { return }
                        await client.handleLifecycleEvent(event)
                    }
                }
                // Whichever ends first ends both.
                _ = await group.next()
                group.cancelAll()
            }
        }
    }

    /// Stops following the app's lifecycle (at shutdown).
    nonisolated func stopObservingLifecycle() {
        stopObservingStoreChanges()
        LifecycleObservations.shared.stop(for: self)
    }

    /// True while this client follows the app's lifecycle.
    nonisolated var isObservingLifecycle: Bool {
        LifecycleObservations.shared.isObserving(self)
    }

    func handleLifecycleEvent(_ event: AppLifecycleEvent) async {
        guard !isShutDown else { return }
        tellBiometricGate(event)
        switch event {
        case .didBecomeActive, .protectedDataDidBecomeAvailable:
            if restoreIsPending {
                // The launch read failed (a locked device): read again rather than sit on `restoring`.
                await retryRestore(because: event == .didBecomeActive ? "the app became active" : "protected data available")
                return
            }
            if !hasRestored, current == nil, restoreTask != nil {
                // A read is in flight and may have asked the locked keychain: if it fails, it reads again.
                restoreRereadRequested = true
                return
            }
            logger.debug("The app became active or was unlocked; resuming")
            await resume()
        case .didEnterBackground:
            // The app may be killed from here on without notice: a session that
            // could not be saved yet gets one more attempt while it still runs.
            guard pendingWrite != nil else { return }
            logger.info("The app went to the background with an unsaved session; saving it now")
            let activity = configuration.backgroundActivity.begin("SessionKit save")
            if await retryPendingWrite() {
                logger.warning("The session could not be saved before the app went to the background; retrying later")
            }
            activity.end()
        }
    }
}
