import SessionSimulation
import Testing

/// The server's counters, as the simulation reads them from `/metrics` text.
struct ServerRefreshOutcomesTests {
    @Test func readsRefreshOutcomesAndReuseFromPrometheusText() {
        let text = """
            # TYPE auth_refreshes_total counter
            auth_refreshes_total{outcome="rotated"} 120
            auth_refreshes_total{outcome="replayedWithinGrace"} 3
            auth_refreshes_total{outcome="refreshTokenNotFound"} 0
            auth_refresh_reuse_detected_total 2
            auth_sign_ins_total{result="success"} 9
            auth_refreshes_total{outcome="garbled"} not-a-number
            """
        let outcomes = ServerRefreshOutcomes(prometheus: text)
        #expect(outcomes.counts == ["rotated": 120, "replayedWithinGrace": 3, "reuseDetected": 2])
        let sum = outcomes + ServerRefreshOutcomes(counts: ["rotated": 1, "recoveredUnsavedSuccessor": 4])
        #expect(sum.counts == ["rotated": 121, "replayedWithinGrace": 3, "reuseDetected": 2, "recoveredUnsavedSuccessor": 4])
        #expect(sum.summary == "rotated 121, recoveredUnsavedSuccessor 4, replayedWithinGrace 3, reuseDetected 2")
    }
}
