import Foundation
import SessionCore
import SessionKit

extension AppLife {
    /// The targeted world's widget: while the app stays suspended, its
    /// extension runs twice, each time past the access token's expiry, so it
    /// rotates the refresh token twice. The app then wakes holding a token
    /// two rotations old: only the cross-process lock and the store re-read
    /// keep it from presenting that token (a reuse, and the family ends).
    func extensionWhileAppSuspended() async throws {
        // No draw unless the world asks for it: the other worlds' seeds replay as before.
        guard parameters.extensionWhileSuspendedChance > 0, hasExtension, app != nil else { return }
        guard random.chance(parameters.extensionWhileSuspendedChance) else { return }
        // Two runs past a one-hour token; the life's genuine end, if any, stays after them.
        let spacing = SessionDefaults.accessTokenLifetime + random.uniform(60...600)
        if let endsAt, elapsed + 2 * spacing >= endsAt { return }
        for _ in 0..<2 {
            background(spacing)
            network.isOffline = elapsed < offlineUntil
            trace.note("extension runs while the app is suspended")
            let widget = launch(validation: .skip)
            await restore(widget)
            report.extensionRuns += 1
            try await record(await Self.request(widget.client, makeRequest()))
            await settle()
            await widget.exit()
        }
    }
}
