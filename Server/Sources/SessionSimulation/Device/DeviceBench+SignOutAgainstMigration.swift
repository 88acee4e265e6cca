import Foundation
import SessionKit

/// Row 10 (issue 31): a person signs out while the blob an earlier app
/// version kept is still there, and the process is killed before the blob's
/// deletion reached the disk. The next launch finds the blob again; it must
/// stay signed out and never send the blob's tokens.
extension DeviceBench {
    func signOutAgainstMigration() async throws {
        // The earlier version signed in and kept its own blob.
        let old = try await signUpElsewhere()
        let defaults = UnflushedDefaults()
        let blob: [String: Any] = [
            "access_token": old.accessToken, "refresh_token": old.refreshToken,
            "expires_at": old.expiresAt.timeIntervalSince1970,
        ]
        defaults.set(try JSONSerialization.data(withJSONObject: blob), forKey: "supabase_session")
        let blobSession = WireLog.sessionID(ofAccessToken: old.accessToken)
        let migration = LegacySessionMigration(legacyStore: defaults, logger: logger)
        let store = keychainStore()

        // Launch 1: the update imports the blob, and is killed before the blob's removal is flushed.
        let first = client("app 1", store: store)
        let imported = await migration.run(on: first)
        note("app 1: migration \(imported)")
        await first.shutdown()
        defaults.processKilled()
        note("app 1 killed before the blob's removal reached the disk")

        // Launch 2: signed in; the person signs out on a train (the server cannot be told); killed again.
        let second = client("app 2", store: store)
        note("app 2: migration \(await migration.run(on: second))")
        _ = try await second.restore()
        wire.setOffline("app 2", true)
        do {
            try await second.signOut()
        } catch {
            note("app 2: sign-out said \(error.message)")
        }
        note("app 2 signed out offline, state \(second.currentState)")
        await second.shutdown()
        defaults.processKilled()
        note("app 2 killed before the blob's removal reached the disk")

        // Launch 3: the blob is there again.
        let third = client("app 3", store: store)
        let outcome = await migration.run(on: third)
        let state = try await third.restore()
        note("app 3: migration \(outcome), restored \(state)")
        do {
            _ = try await third.me()
        } catch {
            note("app 3: a request answered \(error.message)")
        }
        report.expect(!state.isSignedIn && !third.currentState.isSignedIn, "signed back in after a sign-out, from the blob (migration: \(outcome))")
        let sentBlobTokens = wire.requests.filter { request in
            request.process == "app 3"
                && (request.bearer.flatMap(WireLog.sessionID(ofAccessToken:)) == blobSession
                    || request.refreshToken.flatMap(wire.session(ofRefreshToken:)) == blobSession
                    || request.refreshToken == old.refreshToken)
        }
        report.expect(sentBlobTokens.isEmpty, "the launch after the sign-out sent the signed-out session's tokens \(sentBlobTokens.count) time(s)")
        await third.shutdown()
    }
}
