import Foundation
import SessionKit
import SessionKitTesting

/// Row 9 (issue 31): a second device restored from the backup of one that
/// goes on using the session.
///
/// With the default class (`ThisDeviceOnly`) the backup carries no record:
/// the new device starts signed out. With the opt-in class that moves with a
/// backup, the new device finds the record, but the record carries the first
/// device's marker, which stayed behind; it must not present the copy's
/// refresh token, which the first device has rotated since. Presenting it is
/// reuse, and reuse detection would end the family on both devices
/// (docs/PROTOCOL.md, "A device restored from a backup").
extension DeviceBench {
    func deviceRestore() async throws {
        _ = try await signUpElsewhere()

        // The default class: nothing moves.
        let phone = client("phone", store: keychainStore(groups: Self.appGroups))
        _ = try await phone.restore()
        _ = try await phone.signIn(email: email, password: password)
        let plainBackup = keychain.restoredFromBackup()
        let fresh = client("restored, default class", store: keychainStore(groups: Self.appGroups, on: plainBackup))
        let freshState = try await fresh.restore()
        note("default class: the restored device restored \(freshState)")
        report.expect(freshState.session == nil, "the default class moved the session with a backup")
        await fresh.shutdown()
        try await phone.signOut()
        await phone.shutdown()

        // The opt-in class: the record moves, the marker stays.
        let movable = keychainStore(groups: Self.appGroups, accessibility: .afterFirstUnlock)
        let optedIn = client("phone, movable class", store: movable)
        _ = try await optedIn.restore()
        let first = try await optedIn.signIn(email: email, password: password)
        let backup = keychain.restoredFromBackup()
        if sabotage == .deviceMarkerMoves, let marker = keychain.process(accessGroups: Self.appGroups).storedItem(movable.deviceMarkerItem) {
            backup.process(accessGroups: Self.appGroups).plant(marker.data, for: movable.deviceMarkerItem)
        }
        note("the phone signed in with the movable class; a backup was restored onto a second device")

        // The phone goes on: an hour later its session has rotated, past any reuse grace.
        await foreground(3_700)
        _ = try await optedIn.me()

        let restored = client("restored device", store: keychainStore(groups: Self.appGroups, accessibility: .afterFirstUnlock, on: backup))
        let restoredState = try await restored.restore()
        note("the restored device restored \(restoredState)")
        if restoredState.session == nil {
            _ = try await restored.signIn(email: email, password: password)
            note("the person signed in on the restored device")
        }
        // Both devices go on for another hour.
        await foreground(3_700)
        for (name, device) in [("phone", optedIn), ("restored device", restored)] {
            do {
                _ = try await device.me()
            } catch {
                note("\(name): a request answered \(error.message)")
            }
        }

        let copies = wire.requests.filter { request in
            request.process == "restored device"
                && request.refreshToken.flatMap(wire.session(ofRefreshToken:)) == first.sessionID
        }
        report.expect(copies.isEmpty, "the restored device presented the copied session's refresh token \(copies.count) time(s)")
        report.expect(
            optedIn.currentState.session?.sessionID == first.sessionID,
            "the phone lost its session (\(optedIn.currentState))")
        report.expect(restored.currentState.session != nil, "the restored device is not signed in (\(restored.currentState))")
        await restored.shutdown()
        await optedIn.shutdown()
    }
}
