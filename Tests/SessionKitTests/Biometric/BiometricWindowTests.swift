import Foundation
import Testing
@testable import SessionKit

/// The policy's windows as a pure value, on dates passed in (no clock, no sleeping).
struct BiometricWindowTests {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)

    @Test func everyReadNeverReusesACheck() {
        var window = BiometricWindow(.everyRead)
        window.authenticated(at: t0)
        #expect(!window.allowsReuse(now: t0))
    }

    @Test func oncePerLaunchReusesUntilTheProcessEnds() {
        var window = BiometricWindow(.oncePerLaunch)
        #expect(!window.allowsReuse(now: t0))
        window.authenticated(at: t0)
        window.enteredBackground()
        #expect(window.allowsReuse(now: t0.addingTimeInterval(86_400)))
    }

    @Test func timeoutReusesOnlyWithinItsSeconds() {
        var window = BiometricWindow(.timeout(120))
        window.authenticated(at: t0)
        #expect(window.allowsReuse(now: t0.addingTimeInterval(119)))
        #expect(!window.allowsReuse(now: t0.addingTimeInterval(120)))
        // A clock set back before the check closes the gate rather than stretching it.
        #expect(!window.allowsReuse(now: t0.addingTimeInterval(-1)))
        #expect(window.deviceUnlockReuse == 120)
        #expect(BiometricWindow(.timeout(3600)).deviceUnlockReuse == 300)
    }

    @Test func oncePerForegroundClosesWhenTheAppLeaves() {
        var window = BiometricWindow(.oncePerForeground)
        window.authenticated(at: t0)
        #expect(window.allowsReuse(now: t0.addingTimeInterval(3600)))
        window.enteredBackground()
        #expect(!window.allowsReuse(now: t0.addingTimeInterval(3601)))
        window.authenticated(at: t0.addingTimeInterval(3602))
        #expect(window.allowsReuse(now: t0.addingTimeInterval(3603)))
    }

    @Test func aDroppedCheckClosesEveryWindow() {
        for kind in [BiometricPolicy.Window.oncePerLaunch, .timeout(60), .oncePerForeground] {
            var window = BiometricWindow(kind)
            window.authenticated(at: t0)
            window.close()
            #expect(!window.allowsReuse(now: t0), "\(kind)")
        }
    }
}
