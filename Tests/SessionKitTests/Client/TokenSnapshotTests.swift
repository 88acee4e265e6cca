import Foundation
import SessionCore
import Testing

@testable import SessionKit

/// `accessToken()` answers from ``TokenSnapshot`` without the actor; it must
/// never call a token valid that the refresh machine calls expired, or the
/// reverse, at any clock offset or leeway, right up to the boundary.
struct TokenSnapshotTests {
    @Test func agreesWithTheRefreshMachineAtAndAroundTheBoundary() {
        let t0 = Date(timeIntervalSince1970: 1_767_225_600)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let lifetime = [60.0, 120, 3600, 86_400].randomElement(using: &generator)!
            let configuredLeeway = [0.0, 30, 60].randomElement(using: &generator)!
            var machine = RefreshStateMachine(
                configuration: .init(buffer: 300, leeway: configuredLeeway, backoff: Backoff(base: 1, cap: 300)))
            // The server's clock, as a Date header of some skew teaches it.
            let skew = Double.random(in: -86_400...86_400, using: &generator).rounded()
            _ = machine.offset.observe(
                dateHeader: ServerClockOffset.formatHTTPDate(t0.addingTimeInterval(skew)), receivedAt: t0)
            let session = Session(
                accessToken: "a", refreshToken: "r", expiresAt: t0.addingTimeInterval(lifetime), lifetime: lifetime)
            let value = TokenSnapshot.Value(
                accessToken: "a", expiresAt: session.expiresAt, leeway: machine.leeway(for: session),
                offsetSeconds: machine.offset.seconds)
            // The exact local instant the machine's test flips, and its neighbours.
            let flip = session.expiresAt.addingTimeInterval(-machine.leeway(for: session) - machine.offset.seconds)
            let below = Date(timeIntervalSinceReferenceDate: flip.timeIntervalSinceReferenceDate.nextDown)
            let above = Date(timeIntervalSinceReferenceDate: flip.timeIntervalSinceReferenceDate.nextUp)
            for now in [flip, below, above, flip.addingTimeInterval(-1), flip.addingTimeInterval(1)] {
                #expect(value.isExpired(now: now) == machine.isExpired(session, now: now))
            }
        }
    }

    @Test func answersOnlyAnUnexpiredToken() {
        let snapshot = TokenSnapshot()
        let t0 = Date(timeIntervalSince1970: 1_767_225_600)
        #expect(snapshot.validToken(now: t0) == nil)
        snapshot.publish(.init(accessToken: "tok", expiresAt: t0.addingTimeInterval(100), leeway: 10, offsetSeconds: 5))
        #expect(snapshot.validToken(now: t0) == "tok")
        #expect(snapshot.validToken(now: t0.addingTimeInterval(84.9)) == "tok")
        #expect(snapshot.validToken(now: t0.addingTimeInterval(85)) == nil)
        snapshot.publish(nil)
        #expect(snapshot.validToken(now: t0) == nil)
    }
}
