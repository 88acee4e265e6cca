import Foundation
import SessionKit
import SessionKitTesting

/// Row 6 (issue 31): an update that changes where the session lives, and a
/// downgrade.
///
/// Version 1 kept the item under SessionKit 1's bundle-derived service, in
/// the app's default group. Version 2 adds Keychain Sharing (a group for a
/// widget, listed first in its entitlement) and uses the shared service.
/// Nobody may be signed out by the update. Then a newer build writes a
/// record of a newer format and the person goes back to this one (TestFlight,
/// a restored backup of an older build): the older build must leave that
/// record exactly as it is and end nothing on the server.
extension DeviceBench {
    static let appGroups = ["TEAMID.com.example.app"]
    static let sharedGroup = "TEAMID.com.example.shared"
    static let oldService = "com.example.app.sessionkit"

    func updateMovesTheRecord() async throws {
        _ = try await signUpElsewhere()
        // Version 1: the bundle-derived service, no group.
        let version1 = client("version 1", store: keychainStore(groups: Self.appGroups, service: Self.oldService))
        _ = try await version1.restore()
        let signedIn = try await version1.signIn(email: email, password: password)
        await version1.shutdown()
        note("version 1 signed in, item under \(Self.oldService) in the default group")

        // Version 2: the update. A harness sabotage forgets to tell the store where version 1 wrote.
        let forgets = sabotage == .updateForgetsEarlierItem
        let groups = [Self.sharedGroup] + Self.appGroups
        let store2 = keychainStore(
            groups: groups, accessGroup: Self.sharedGroup, previousServices: forgets ? [] : [Self.oldService])
        let version2 = client("version 2", store: store2)
        let state = try await version2.restore()
        note("version 2 restored \(state)")
        report.expect(state.session?.sessionID == signedIn.sessionID, "the update signed the person out (restored \(state))")
        await foreground(3_600)  // version 2 refreshes, and writes the record itself
        do {
            _ = try await version2.me()
        } catch {
            note("version 2: a request answered \(error.message)")
        }
        let signIns = wire.requests.filter { $0.path.hasSuffix("/token") && $0.refreshToken == nil && $0.process != "version 1" }
        report.expect(signIns.isEmpty, "\(signIns.count) new sign-in(s) after the update")
        await version2.shutdown()

        // A newer build writes a newer format; then this build runs again.
        let raw = keychain.process(accessGroups: groups)
        let item = KeychainItem(service: KeychainSessionStore.defaultService, account: "session", accessGroup: Self.sharedGroup)
        guard let current = raw.storedItem(item)?.data,
            var object = try JSONSerialization.jsonObject(with: current) as? [String: Any]
        else {
            report.violations.append("no record where version 2 keeps it")
            return
        }
        object["version"] = StoredSession.currentVersion + 1
        object["deviceBinding"] = ["kind": "a field this build does not know"]
        let newer = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        raw.plant(newer, for: item)
        let older = client("older build", store: keychainStore(groups: groups, accessGroup: Self.sharedGroup, previousServices: [Self.oldService]))
        let olderState: SessionState
        do {
            olderState = try await older.restore()
        } catch {
            olderState = older.currentState
            note("the older build's restore answered \(error.message)")
        }
        note("the older build restored \(olderState)")
        do {
            _ = try await older.me()
        } catch {
            note("the older build: a request answered \(error.message)")
        }
        await older.shutdown()
        report.expect(raw.storedItem(item)?.data == newer, "the older build changed or deleted the newer build's record")
        let loggedOut = wire.requests.filter { $0.path.hasSuffix("/logout") }
        report.expect(loggedOut.isEmpty, "the session was ended on the server (\(loggedOut.count) /logout)")
    }
}
