import Foundation
import SessionKit
import SessionKitTesting

/// Row 7 (issue 31): a widget with its own bundle identifier and
/// entitlements shares the session through a keychain access group. It
/// refreshes while the app is suspended; then the app signs one person out
/// and another in while the widget still holds the first in memory. The
/// widget never sends the ended session's tokens.
///
/// The widget does what the extension guide says at the start of each run
/// (each timeline): `restore()`, which re-reads the shared record when a
/// session is already in memory (docs/PROTOCOL.md, "The Keychain item").
extension DeviceBench {
    static let widgetGroups = [sharedGroup, "TEAMID.com.example.app.widget"]

    func widgetSharesSession() async throws {
        _ = try await signUpElsewhere()
        let second = "second-" + email
        _ = try await signUpElsewhere(email: second)
        let lockDirectory = directory.appendingPathComponent("SessionKit")
        let appStore = keychainStore(
            groups: [Self.sharedGroup] + Self.appGroups, accessGroup: Self.sharedGroup, lockDirectory: lockDirectory)
        let widgetKeychain = keychain.process(accessGroups: Self.widgetGroups)
        // An extension has no UIApplication: it passes the probe (docs/PROTOCOL.md, "The Keychain item").
        let widgetStore = KeychainSessionStore(
            keychain: widgetKeychain, accessGroup: Self.sharedGroup, previousServices: [], lockDirectory: lockDirectory,
            protectedData: KeychainProbeProtectedData(keychain: widgetKeychain, accessGroup: Self.sharedGroup),
            protectedDataWait: .milliseconds(1))

        let app = client("app", store: appStore)
        _ = try await app.restore()
        let first = try await app.signIn(email: email, password: password)
        let widget = client("widget", store: widgetStore)
        _ = try await widget.restore()
        _ = try await widget.me()
        note("the app signed the first person in; the widget read the shared item")

        // The app is suspended; an hour on, the widget's timeline runs and refreshes.
        background(3_700)
        _ = try await widget.restore()
        _ = try await widget.me()
        note("the widget refreshed while the app was suspended")

        // The app comes back, signs the first person out and the second in.
        await app.resume()
        _ = try await app.me()
        let sentBefore = wire.requests.count
        try await app.signOut()
        let signedIn = try await app.signIn(email: second, password: password)
        note("the app signed the first person out and the second in")

        // The widget's next timeline, a minute later: the first person's tokens are still valid in its memory.
        background(60)
        _ = try await widget.restore()
        var answered = "ok"
        do {
            _ = try await widget.me()
        } catch {
            answered = error.message
        }
        note("the widget's next run: \(widget.currentState), a request answered \(answered)")
        let firstSession = first.sessionID
        let ended = wire.requests.dropFirst(sentBefore).filter { request in
            request.process == "widget"
                && (request.bearer.flatMap(WireLog.sessionID(ofAccessToken:)) == firstSession
                    || request.refreshToken.flatMap(wire.session(ofRefreshToken:)) == firstSession)
        }
        report.expect(ended.isEmpty, "the widget sent the signed-out session's tokens \(ended.count) time(s)")
        report.expect(
            widget.currentState.session?.sessionID == signedIn.sessionID,
            "the widget does not hold the person signed in now (\(widget.currentState))")
        await widget.shutdown()
        await app.shutdown()
    }
}
