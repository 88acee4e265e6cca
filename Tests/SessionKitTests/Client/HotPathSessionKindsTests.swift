import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
@testable import SessionKit
import SessionKitTesting
import Testing

/// Issue 44, item 2: however the session began (a second factor, a passkey,
/// an anonymous sign-in), `accessToken()` and `send` to the app's API read
/// the token the same way: from the snapshot, one clock read a call, on the
/// caller's executor. The snapshot holds the token, its expiry, the leeway,
/// the clock offset and the offline flag, and nothing about how the session
/// began, so there is nothing for the hot path to branch on.
@Suite(.timeLimit(.minutes(1)))
struct HotPathSessionKindsTests {
    enum Start: String, CaseIterable, Sendable, CustomStringConvertible {
        case secondFactor, passkey, anonymous
        var description: String { rawValue }
    }

    /// A client signed in the way `start` says, and its session.
    static func signedIn(_ start: Start) async throws -> (BesideTheActorRig, Session) {
        switch start {
        case .secondFactor:
            let rig = await BesideTheActorRig.make()
            try await rig.signIn()
            let factor = try await rig.client.mfa.enroll(params: MFAEnrollParams(issuer: "Acme", friendlyName: "phone"))
            let code = try #require(await rig.fake.totpCode(forFactor: factor.id))
            let raised = try await rig.client.mfa.challengeAndVerify(factorId: factor.id, code: code)
            #expect(raised.assurance.currentLevel == .aal2)
            return (rig, raised)
        case .passkey:
            let authenticator = SoftwareAuthenticator()
            let rig = await BesideTheActorRig.make(auth: { FakePasskeyServer(fake: $0) })
            try await rig.signIn()
            try await rig.client.registerPasskey(using: authenticator)
            try await rig.client.signOut()
            return (rig, try await rig.client.signInWithPasskey(using: authenticator))
        case .anonymous:
            // An anonymous session as auth-server and GoTrue issue it, launched from the store.
            let clock = ManualClock()
            let expiresAt = clock.now.addingTimeInterval(3600)
            let claims: [String: Any] = [
                "sub": "anon-1", "aud": "authenticated", "role": "authenticated", "is_anonymous": true,
                "session_id": "s-anon", "aal": "aal1", "exp": Int(expiresAt.timeIntervalSince1970),
                "amr": [["method": "anonymous", "timestamp": Int(clock.now.timeIntervalSince1970)]],
            ]
            let user = SessionUser(id: "anon-1", email: nil, isAnonymous: true, createdAt: clock.now, updatedAt: clock.now, factors: nil)
            let record = StoredSession(
                accessToken: try Self.unsignedJWT(claims), refreshToken: "anon-refresh", expiresAt: expiresAt, lifetime: 3600,
                user: user)
            let rig = await BesideTheActorRig.make(store: InMemorySessionStore(record), clock: clock)
            let state = try await rig.client.restore()
            let session = try #require(state.session)
            #expect(session.user?.isAnonymous == true)
            return (rig, session)
        }
    }

    static func unsignedJWT(_ claims: [String: Any]) throws -> String {
        func part(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "typ": "JWT"])
        return "\(part(header)).\(part(try JSONSerialization.data(withJSONObject: claims))).c2ln"
    }

    @MainActor @Test(arguments: Start.allCases)
    func theTokenIsReadTheSameWayHoweverTheSessionBegan(_ start: Start) async throws {
        let (rig, session) = try await Self.signedIn(start)
        var tokens: Set<String> = []
        var statuses: Set<Int> = []
        rig.probe.arm()
        for _ in 0..<10 {
            let token = try await rig.client.accessToken()
            tokens.insert(token)
            let (_, response) = try await rig.client.send(URLRequest(url: AppAPI.url("runs")))
            statuses.insert(response.statusCode)
        }
        let reads = rig.probe.disarm()
        #expect(tokens == [session.accessToken])
        #expect(statuses == [200])
        // One clock read a call, on the main queue: neither call entered the actor.
        #expect(reads.count == 20, "\(start): \(reads.count) clock reads for 20 calls")
        #expect(reads.allSatisfy { $0 }, "\(start): a call left the main actor")
        #expect(rig.api.tokensSeen.allSatisfy { $0 == session.accessToken })
        await rig.client.shutdown()
    }
}
