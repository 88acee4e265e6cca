import Foundation
import SessionKit
import SessionKitTesting

/// Row 9 (issue 31) for a DPoP life (issue 43, item 11): the phone's session
/// is bound to a key in a `ThisDeviceOnly` Keychain item, and a backup of the
/// phone (its files, its keychain) is restored onto a second device.
///
/// The record moves with the files, the key does not: the restored device must
/// end the session at launch with `proofKeyLost`, never present the copied
/// refresh token, and the phone must keep its session (docs/DPOP.md).
extension DeviceBench {
    func dpopDeviceRestore() async throws {
        let phoneFiles = directory.appendingPathComponent("dpop-phone", isDirectory: true)
        let phone = client(
            "DPoP phone", store: FileSessionStore(directory: phoneFiles),
            dpop: DPoPConfiguration(keyStore: KeychainDPoPKeyStore(keychain: keychain.process(accessGroups: Self.appGroups))))
        _ = try await phone.restore()
        let first = try await phone.signIn(email: email, password: password)
        report.expect(first.tokenType.caseInsensitiveCompare("DPoP") == .orderedSame, "the DPoP phone's session is not bound to its key")

        // A backup: the app's files move, the keychain keeps only what may leave the device.
        let restoredFiles = directory.appendingPathComponent("dpop-restored", isDirectory: true)
        try FileManager.default.copyItem(at: phoneFiles, to: restoredFiles)
        let backup = keychain.restoredFromBackup()
        note("the DPoP phone signed in (bound); a backup of its files and keychain was restored onto a second device")

        // The phone goes on: an hour later its session has rotated.
        await foreground(3_700)
        _ = try await phone.me()
        let restored = client(
            "DPoP restored device", store: FileSessionStore(directory: restoredFiles),
            dpop: DPoPConfiguration(keyStore: KeychainDPoPKeyStore(keychain: backup.process(accessGroups: Self.appGroups))))
        let restoredState = try await restored.restore()
        note("the restored device restored \(restoredState)")
        await foreground(3_700)
        for (name, device) in [("DPoP phone", phone), ("DPoP restored device", restored)] {
            do {
                _ = try await device.me()
            } catch {
                note("\(name): a request answered \(error.message)")
            }
        }

        let presented = wire.requests.filter { $0.process == "DPoP restored device" && $0.refreshToken != nil }
        report.expect(presented.isEmpty, "the restored device without the key presented a refresh token \(presented.count) time(s)")
        report.expect(
            restoredState == .expired(reason: SessionError.proofKeyLost.message),
            "the restored device without the key did not end its session with proofKeyLost (\(restoredState))")
        report.expect(!restored.currentState.isSignedIn, "the restored device without the key is signed in (\(restored.currentState))")
        report.expect(
            phone.currentState.session?.sessionID == first.sessionID,
            "the DPoP phone lost its session to the restored backup (\(phone.currentState))")
        dpopRestorePlayed = true
        await restored.shutdown()
        await phone.shutdown()
    }
}
