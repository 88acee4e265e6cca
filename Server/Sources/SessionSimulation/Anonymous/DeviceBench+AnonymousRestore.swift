import Foundation
import SessionKit
import SessionKitTesting

/// Row 9 (issue 31) for an anonymous person (issue 40, item 6): the phone
/// signed in anonymously keeps its record in the class that moves with a
/// backup, and the backup is restored onto a second device.
///
/// The copy must not be presented (reuse detection would end the family on
/// the phone too, and an anonymous person cannot sign back in): the phone
/// keeps the account, and the restored device starts without it, which is
/// all it can do without an address to sign in with.
extension DeviceBench {
    func anonymousDeviceRestore() async throws {
        let movable = keychainStore(groups: Self.appGroups, accessibility: .afterFirstUnlock)
        let phone = client("anonymous phone", store: movable)
        _ = try await phone.restore()
        let first = try await signInAnonymously(phone)
        let backup = keychain.restoredFromBackup()
        if sabotage == .deviceMarkerMoves, let marker = keychain.process(accessGroups: Self.appGroups).storedItem(movable.deviceMarkerItem) {
            backup.process(accessGroups: Self.appGroups).plant(marker.data, for: movable.deviceMarkerItem)
        }
        note("the phone signed in anonymously with the movable class; a backup was restored onto a second device")

        // The phone goes on: an hour later its session has rotated, past any reuse grace.
        await foreground(3_700)
        _ = try await phone.me()
        let restored = client(
            "anonymous restored device", store: keychainStore(groups: Self.appGroups, accessibility: .afterFirstUnlock, on: backup))
        note("the restored device restored \(try await restored.restore())")
        await foreground(3_700)
        for (name, device) in [("anonymous phone", phone), ("anonymous restored device", restored)] {
            do {
                _ = try await device.me()
            } catch {
                note("\(name): a request answered \(error.message)")
            }
        }

        let copies = wire.requests.filter { request in
            request.process == "anonymous restored device"
                && request.refreshToken.flatMap(wire.session(ofRefreshToken:)) == first.sessionID
        }
        report.expect(copies.isEmpty, "the restored device presented the anonymous session's copied refresh token \(copies.count) time(s)")
        let kept = phone.currentState.session?.sessionID == first.sessionID
        report.expect(kept, "the anonymous person's phone lost its session, and with it the account (\(phone.currentState))")
        // A copy presented is reuse: our server hands it the unused successor, but GoTrue (and
        // any backend without that recovery) ends the family on both devices (docs/RELIABILITY.md).
        anonymousAccountLost = !kept || !copies.isEmpty
        await restored.shutdown()
        await phone.shutdown()
    }

    /// The SDK's `signInAnonymously(data:)`, its tokens logged, so the wire knows the session's first refresh token.
    private func signInAnonymously(_ client: SessionClient) async throws -> Session {
        let session = try await client.signInAnonymously()
        guard session.isAnonymous else { throw SimulationError(description: "the anonymous sign-in gave a session that is not anonymous") }
        return session
    }
}
