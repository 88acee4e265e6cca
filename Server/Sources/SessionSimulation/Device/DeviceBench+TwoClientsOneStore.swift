import Foundation
import SessionKit

/// Row 8 (issue 31): two clients on one store in one process (an app that
/// builds a client per screen, or keeps an old one around), one of them
/// dropped while its refresh timer is armed. Each refresh token reaches
/// `/token` once, and the dropped client never reads, writes or sends again.
extension DeviceBench {
    func twoClientsOneStore() async throws {
        _ = try await signUpElsewhere()
        // An app without extensions: the keychain store as the guide writes it, no lock directory.
        let store = keychainStore()
        let first = client("client A", store: WatchedStore(base: store))
        _ = try await first.restore()
        _ = try await first.signIn(email: email, password: password)
        var second: SessionClient? = client("client B", store: WatchedStore(base: store))
        _ = try await second?.restore()
        note("both clients signed in on one store, their refresh timers armed")

        // Both timers come due: one refresh for the two of them.
        await foreground(3_600)
        _ = try await first.me()
        _ = try await second?.me()
        note("an hour later: \(wire.refreshPresentations.count) refresh token(s) sent")

        // The second client is dropped with its timer armed.
        let secondStore = (second?.configuration.store as? WatchedStore)
        weak let dropped = second
        second = nil
        let callsAtDrop = secondStore?.calls.value ?? 0
        let sentAtDrop = wire.requests.filter { $0.process == "client B" }.count
        note("client B dropped, \(dropped == nil ? "released" : "still alive")")
        for _ in 0..<3 {
            await foreground(3_600)
            _ = try await first.me()
        }
        let laterCalls = (secondStore?.calls.value ?? 0) - callsAtDrop
        let laterSent = wire.requests.filter { $0.process == "client B" }.count - sentAtDrop
        report.expect(laterCalls == 0 && laterSent == 0, "the dropped client went on: \(laterCalls) store call(s), \(laterSent) request(s)")
        let repeated = wire.refreshPresentations.values.filter { $0 > 1 }
        report.expect(repeated.isEmpty, "\(repeated.count) refresh token(s) sent to /token more than once (\(repeated))")
        report.expect(wire.refreshPresentations.count >= 3, "only \(wire.refreshPresentations.count) refreshes in four hours")
        await first.shutdown()
    }
}
