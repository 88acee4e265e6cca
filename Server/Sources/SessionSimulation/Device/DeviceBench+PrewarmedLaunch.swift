import Foundation
import SessionKit
import SessionKitTesting

/// Row 5 (issue 31): iOS prewarms the app after a restart, before the first
/// unlock. The keychain answers "not found" for the session's item (iOS 15
/// and later; firebase-ios-sdk PR 16505), for longer than the store waits,
/// and no protected-data notification comes. Then the person unlocks and
/// opens the app. No signed-out state may be published meanwhile, nothing
/// written or cleared, and the session must be back without a new sign-in.
extension DeviceBench {
    func prewarmedLaunch() async throws {
        _ = try await signUpElsewhere()
        let process = keychain.process(accessGroups: InMemoryKeychain.defaultAccessGroups)
        func store() -> KeychainSessionStore {
            KeychainSessionStore(
                keychain: process, previousServices: [], protectedData: DeviceProtectedData(device: keychain),
                protectedDataWait: .milliseconds(1))
        }
        let before = client("app before the restart", store: store())
        _ = try await before.restore()
        let signedIn = try await before.signIn(email: email, password: password)
        await before.shutdown()
        keychain.restart()
        background(6 * 3_600)  // the phone restarts overnight; the access token has expired
        note("signed in, then the device restarted; the keychain answers not found until the first unlock")

        let writesBefore = process.count(.add) + process.count(.update) + process.count(.delete)
        let app = client("prewarmed app", store: store())
        let published = PublishedStates()
        let states = app.states
        let watcher = Task { for await state in states { published.append(state) } }
        do {
            let state = try await app.restore()
            note("prewarmed restore answered \(state)")
        } catch {
            note("prewarmed restore threw \(error.message)")
        }
        _ = await lifecycle.waitForSubscribers()
        // Prewarmed for ten minutes: the retry timer runs, the device stays locked.
        for _ in 0..<5 { await foreground(120) }
        let writesWhileLocked = process.count(.add) + process.count(.update) + process.count(.delete) - writesBefore

        keychain.unlock()
        lifecycle.send(.didBecomeActive)
        await foreground(1)
        var answered = "ok"
        do {
            _ = try await app.me()
        } catch {
            answered = error.message
        }
        await foreground(1)
        note("unlocked and opened: \(app.currentState), a request answered \(answered)")
        await app.shutdown()
        await watcher.value

        let signedOut = published.all.filter { if case .signedOut = $0 { true } else if case .expired = $0 { true } else { false } }
        report.expect(signedOut.isEmpty, "\(signedOut.count) signed-out state(s) published on a locked device")
        report.expect(writesWhileLocked == 0, "\(writesWhileLocked) keychain write(s) or delete(s) while locked")
        let signIns = wire.requests.filter { $0.process == "prewarmed app" && $0.path.hasSuffix("/token") && $0.refreshToken == nil }
        report.expect(
            published.all.last?.session?.sessionID == signedIn.sessionID && signIns.isEmpty,
            "the session did not come back after the unlock (last state \(published.all.last.map(String.init(describing:)) ?? "none"))")
    }
}

/// The states a client published, in order.
final class PublishedStates: @unchecked Sendable {
    private let lock = NSLock()
    private var states: [SessionState] = []
    var all: [SessionState] { lock.withLock { states } }
    func append(_ state: SessionState) { lock.withLock { states.append(state) } }
}
