import Foundation
import Logging
import SessionCore
import ServiceLifecycle

/// Deletes expired refresh tokens, dead sessions and expired page and console
/// sessions (among the rest `AuthStore.pruneExpired` covers) every `interval` seconds
/// of the injected clock, until graceful shutdown.
struct PruneService: Service {
    let store: AuthStore
    let clock: any SessionClock
    let interval: TimeInterval
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    // Cancelled by graceful shutdown: a normal end, not a failure.
                    return
                }
                do {
                    let pruned = try await store.pruneExpired(now: clock.now)
                    logger.info("Pruned expired refresh tokens", metadata: ["count": "\(pruned)"])
                } catch is CancellationError {
                    return
                } catch {
                    // A failed pass is retried next interval; the server keeps serving.
                    logger.error("Pruning failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
                }
            }
        }
    }
}
