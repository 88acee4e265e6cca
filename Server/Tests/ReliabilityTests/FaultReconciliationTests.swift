import SessionKitFaultProxy
import Testing
@testable import SessionSimulation

/// The reconciliation can fail: a draw the proxy never injected, or an
/// injection nobody drew, is named.
struct FaultReconciliationTests {
    static func life(faults: [Fault: Int], killResets: Int) -> LifeReport {
        var life = LifeReport(index: 0, seed: 1, ending: nil)
        life.faults = faults
        life.killResets = killResets
        return life
    }

    @Test func agreeingCountsReconcileAndRefusedIsNotTheProxys() {
        var proxy = ProxyStatistics()
        proxy.faults = ["stall": 2, "reset-mid-response": 3]
        let lives = [Self.life(faults: [.stall: 2, .resetMidResponse: 1, .refused: 5], killResets: 2)]
        #expect(FaultReconciliation.mismatches(lives: lives, proxy: proxy).isEmpty)
    }

    @Test func aDrawThatNeverLeftAndAnInjectionNobodyDrewAreNamed() {
        var proxy = ProxyStatistics()
        proxy.faults = ["stall": 1, "garble-body": 1]
        let mismatches = FaultReconciliation.mismatches(lives: [Self.life(faults: [.stall: 2], killResets: 0)], proxy: proxy)
        #expect(mismatches.count == 2)
        #expect(mismatches.contains { $0.hasPrefix("stall: drawn 2, injected by the proxy 1") })
    }
}

extension FaultReconciliationTests {
    /// A transport's own resends after a reset before forwarding are not draws;
    /// fewer injections than draws still are a mismatch.
    @Test func aTransportsOwnResendsAfterAResetBeforeForwardingAreNotAMismatch() {
        var proxy = ProxyStatistics()
        proxy.faults = ["reset-before-forwarding": 9]
        let lives = [Self.life(faults: [.resetBeforeForwarding: 3], killResets: 0)]
        #expect(FaultReconciliation.mismatches(lives: lives, proxy: proxy).isEmpty)
        proxy.faults = ["reset-before-forwarding": 2]
        #expect(FaultReconciliation.mismatches(lives: lives, proxy: proxy).count == 1)
    }
}

extension FaultReconciliationTests {
    /// A draw whose request a kill cancelled may not have left; one that was not cancelled must arrive.
    @Test func aDrawCancelledByAKillMayBeMissingAndNoOtherMay() {
        var life = Self.life(faults: [.garbledBody: 3], killResets: 0)
        life.cancelledFaultDraws = [.garbledBody: 1]
        var proxy = ProxyStatistics()
        proxy.faults = ["garble-body": 2]
        #expect(FaultReconciliation.mismatches(lives: [life], proxy: proxy).isEmpty)
        proxy.faults = ["garble-body": 1]
        #expect(FaultReconciliation.mismatches(lives: [life], proxy: proxy).count == 1)
    }
}
