import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The estimated difference between the server's clock and ours, from `Date` headers.
///
/// Every expiry decision uses the server's time (`expires_at` is written in
/// it), so a device clock that is minutes or days off neither logs anyone out
/// nor uses expired tokens.
///
/// Samples come only from the auth backend's own answers (the client
/// filters by origin), an `Age` header is added back (a cached answer's
/// `Date` is older than the moment it arrived), and the estimate is the
/// sample with the smallest round trip among the recent ones: the one whose
/// `Date` was least blurred by latency. A `Date` is blurred by up to 2 s on
/// its own (resolution and caching), so a change under ``noise`` seconds is
/// not reported (docs/PROTOCOL.md, "The server's clock").
public struct ServerClockOffset: Sendable, Hashable {
    /// One `Date` header reading.
    struct Sample: Sendable, Hashable {
        var offset: TimeInterval
        var roundTrip: TimeInterval
    }

    /// Server time minus local time, in seconds.
    public private(set) var seconds: TimeInterval = 0
    /// Whether any sample was seen.
    public private(set) var isKnown = false
    private var samples: [Sample] = []

    /// Changes smaller than this are truncation, a cached header and latency, not a different clock.
    public static let noise: TimeInterval = 1.5
    /// How far behind the server's clock a `Date` can read: one second of
    /// resolution, and one more because servers cache the header (Hummingbird
    /// renews it once a second, at no particular phase). Read as the server's
    /// time itself, a `Date` made a server on our own clock look up to 2 s
    /// behind, past ``noise``.
    static let dateSpan: TimeInterval = 2
    /// How many recent samples the estimate chooses from.
    static let window = 8

    public init(seconds: TimeInterval = 0) {
        self.seconds = seconds
        self.isKnown = seconds != 0
    }

    /// The estimated server time at local time `localNow`.
    public func serverTime(at localNow: Date) -> Date { localNow.addingTimeInterval(seconds) }

    /// The local time at which the server's clock reads `serverDate`.
    public func localTime(for serverDate: Date) -> Date { serverDate.addingTimeInterval(-seconds) }

    /// Takes a sample from a response's `Date` (and `Age`) headers.
    ///
    /// - Parameters:
    ///   - dateHeader: the response's `Date` header, if any.
    ///   - age: the response's `Age` header, if any (a cache held it that long).
    ///   - sentAt: local time the request left; `nil` when unknown (a round trip of 0 is assumed).
    ///   - receivedAt: local time the answer arrived.
    /// - Returns: `true` if the estimate changed by at least ``noise``. Headers that do not parse are ignored.
    @discardableResult
    public mutating func observe(dateHeader: String?, age: String? = nil, sentAt: Date? = nil, receivedAt: Date) -> Bool {
        guard let dateHeader, let serverDate = HTTPDate.parse(dateHeader) else { return false }
        let ageSeconds = age.flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) } ?? 0
        let roundTrip = sentAt.map { max(0, receivedAt.timeIntervalSince($0)) } ?? 0
        // The server read its clock somewhere between sending and receiving:
        // measured from the midpoint, the error is at most half the round
        // trip either way (from `receivedAt` alone, a slow answer made the
        // server look behind by its whole latency).
        let midpoint = receivedAt.addingTimeInterval(-roundTrip / 2)
        // The server's time was somewhere in [Date, Date + dateSpan): its middle is the estimate.
        let serverTime = serverDate.addingTimeInterval(ageSeconds + Self.dateSpan / 2)
        let sample = Sample(offset: serverTime.timeIntervalSince(midpoint), roundTrip: roundTrip)
        // A sample no latency can reconcile with the older ones means a clock
        // was changed: the older samples describe a clock that is gone.
        if let current = samples.min(by: { $0.roundTrip < $1.roundTrip }),
            abs(sample.offset - current.offset) > (sample.roundTrip + current.roundTrip) / 2 + 2 * Self.noise
        {
            samples.removeAll()
        }
        samples.append(sample)
        if samples.count > Self.window { samples.removeFirst(samples.count - Self.window) }
        // The tightest round trip wins; among equals, the latest (a clock that was changed since).
        guard let best = samples.reversed().min(by: { $0.roundTrip < $1.roundTrip }) else { return false }
        let wasKnown = isKnown
        isKnown = true
        // Within the sample's own uncertainty (half the date span and half the round trip, with a
        // margin for a late header renewal), nothing is known to differ.
        let uncertainty = Self.noise + best.roundTrip / 2
        if !wasKnown, abs(best.offset) < uncertainty { return false }
        if wasKnown, abs(best.offset - seconds) < uncertainty { return false }
        seconds = best.offset
        return true
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7).
    public static func parseHTTPDate(_ text: String) -> Date? { HTTPDate.parse(text) }

    /// A starting estimate from an earlier run (the store record), replaced by the first real sample.
    init(remembered seconds: TimeInterval) {
        self.seconds = seconds
        self.isKnown = true
    }

    /// Formats `date` as an IMF-fixdate (used by the fake backend).
    public static func formatHTTPDate(_ date: Date) -> String { HTTPDate.format(date) }
}
