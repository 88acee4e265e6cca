import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import Testing

@testable import SessionKit

struct ClockAndBackoffTests {
    @Test func backoffDoublesUpToTheCap() {
        let backoff = Backoff(base: 1, cap: 300)
        #expect(backoff.ceiling(attempt: 1) == 1)
        #expect(backoff.ceiling(attempt: 4) == 8)
        #expect(backoff.ceiling(attempt: 20) == 300)
        #expect(backoff.ceiling(attempt: 10_000) == 300)
        #expect(backoff.delay(attempt: 3, jitter: 0) == 0)
        #expect(backoff.delay(attempt: 3, jitter: 0.5) == 2)
        #expect(backoff.delay(attempt: 1, jitter: 0.5, retryAfter: 1_000_000) == 300)
    }

    @Test func seededJitterIsReproducibleAndInRange() {
        let a = JitterSource.seeded(42)
        let b = JitterSource.seeded(42)
        let first = (0..<100).map { _ in a.unit() }
        #expect(first == (0..<100).map { _ in b.unit() })
        #expect(first.allSatisfy { (0..<1).contains($0) })
        #expect(Set(first).count > 90)
    }

    @Test func parsesAndFormatsHTTPDates() throws {
        let date = try #require(ServerClockOffset.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(date == Date(timeIntervalSince1970: 784_111_777))
        #expect(ServerClockOffset.formatHTTPDate(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(ServerClockOffset.parseHTTPDate("yesterday") == nil)
        #expect(ServerClockOffset.parseHTTPDate("Sun, 99 Nov 1994 08:49:37 GMT") == nil)
        #expect(ServerClockOffset.parseHTTPDate("") == nil)
    }

    @Test func estimatesTheOffsetAndIgnoresNoise() {
        let local = Date(timeIntervalSince1970: 1_767_225_600)
        var offset = ServerClockOffset()
        let changed = offset.observe(dateHeader: ServerClockOffset.formatHTTPDate(local.addingTimeInterval(-120)), receivedAt: local)
        #expect(changed)
        // A `Date` of -120 s means -120 s to -118 s (a second of resolution, a second of caching): the middle.
        #expect(offset.seconds == -119)
        let noise = offset.observe(dateHeader: ServerClockOffset.formatHTTPDate(local.addingTimeInterval(-119)), receivedAt: local)
        #expect(!noise)
        let garbage = offset.observe(dateHeader: "garbage", receivedAt: local)
        #expect(!garbage)
        #expect(offset.serverTime(at: local) == local.addingTimeInterval(-119))
        #expect(offset.localTime(for: local) == local.addingTimeInterval(119))
    }
}
