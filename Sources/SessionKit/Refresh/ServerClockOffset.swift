import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The estimated difference between the server's clock and ours, from `Date` headers.
///
/// Every expiry decision uses the server's time (`expires_at` is written in
/// it), so a device clock that is minutes off neither logs anyone out nor
/// uses expired tokens. `Date` has one-second resolution, so samples within a
/// second of the current estimate are ignored as noise.
public struct ServerClockOffset: Sendable, Hashable {
    /// Server time minus local time, in seconds.
    public private(set) var seconds: TimeInterval = 0
    /// Whether any sample was seen.
    public private(set) var isKnown = false

    public init(seconds: TimeInterval = 0) {
        self.seconds = seconds
        self.isKnown = seconds != 0
    }

    /// The estimated server time at local time `localNow`.
    public func serverTime(at localNow: Date) -> Date { localNow.addingTimeInterval(seconds) }

    /// The local time at which the server's clock reads `serverDate`.
    public func localTime(for serverDate: Date) -> Date { serverDate.addingTimeInterval(-seconds) }

    /// Takes a sample from a response's `Date` header received at `localNow`.
    ///
    /// - Returns: `true` if the estimate changed. Headers that do not parse are ignored.
    @discardableResult
    public mutating func observe(dateHeader: String?, receivedAt localNow: Date) -> Bool {
        guard let dateHeader, let serverDate = Self.parseHTTPDate(dateHeader) else { return false }
        let sample = serverDate.timeIntervalSince(localNow)
        // Up to a second of truncation plus latency: not a real difference.
        if isKnown, abs(sample - seconds) < 1.5 { return false }
        if !isKnown, abs(sample) < 1.5 {
            isKnown = true
            return false
        }
        seconds = sample
        isKnown = true
        return true
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7).
    public static func parseHTTPDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = months.firstIndex(of: String(parts[2])).map({ $0 + 1 })
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (1...31).contains(day), (1970...9999).contains(year), (0...23).contains(time[0]),
            (0...59).contains(time[1]), (0...60).contains(time[2])
        else { return nil }
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        components.hour = time[0]
        components.minute = time[1]
        components.second = time[2]
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        return calendar.date(from: components)
    }

    /// Formats `date` as an IMF-fixdate (used by the fake backend).
    public static func formatHTTPDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(weekdays[((c.weekday ?? 1) - 1) % 7]), \(two(c.day)) \(months[((c.month ?? 1) - 1) % 12]) "
            + "\(c.year ?? 1970) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) GMT"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
