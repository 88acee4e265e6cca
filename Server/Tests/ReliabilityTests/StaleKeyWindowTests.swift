import Foundation
import Testing

@testable import SessionSimulation

/// The stale-JWKS row counts a request's extra sends per request, not over the life.
///
/// Before, the invariant was `401s − 3 × requests in the window`: requests
/// that never reached the resource (`/auth/v1/user`, or a refresh that failed
/// first) left room for another request's extra sends, and the planted
/// `refresh-until-accepted` went unseen with seed 333519515 of the sabotage
/// matrix. These failed against that rule.
struct StaleKeyWindowTests {
    @Test func oneRequestsExtraSendsAreSeenBesideRequestsThatNeverReachedTheResource() {
        let window = StaleKeyWindow()
        for _ in 0..<5 { window.rejected(request: "1") }
        var field = FieldReport()
        field.staleKeyRequests = 3  // requests 2 and 3 met no 401
        field.staleKeyRejections = window.counts.rejections
        field.staleKeyExcessPerRequest = window.excessSends
        #expect(field.staleKeyExcessSends == 2)
    }

    @Test func threeSendsOfEachRequestAreAllowed() {
        let window = StaleKeyWindow()
        for id in ["1", "2"] { for _ in 0..<3 { window.rejected(request: id) } }
        window.rejected(request: nil)
        #expect(window.excessSends == 0)
        #expect(window.counts.rejections == 7)
    }
}
