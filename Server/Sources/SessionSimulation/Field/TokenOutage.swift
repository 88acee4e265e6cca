import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// A long `/token` outage (issue 31, row 2): every refresh is answered 500
/// (GoTrue's `unexpected_failure`) while the outage lasts; everything else
/// passes. Counts the refreshes the device sent during it and when the first
/// one succeeded after it.
final class TokenOutage: @unchecked Sendable, TransportMiddleware {
    static let answer = #"{"code":500,"error_code":"unexpected_failure","msg":"Internal Server Error"}"#

    // `@unchecked`: every field is touched under `lock`.
    private let lock = NSLock()
    private var until: Date?
    private var ended: Date?
    private var calls = 0
    private var recoveredAt: Date?
    private let serverClock: any SessionClock
    private let network: DeviceNetwork

    init(serverClock: any SessionClock, network: DeviceNetwork) {
        self.serverClock = serverClock
        self.network = network
    }

    func start(lasting seconds: TimeInterval) {
        lock.withLock {
            until = serverClock.now.addingTimeInterval(seconds)
            ended = nil
            calls = 0
            recoveredAt = nil
        }
    }

    /// Refreshes sent while it lasted, and seconds from its end to the first refresh that succeeded (nil: none yet).
    var figures: (calls: Int, recovery: TimeInterval?) {
        lock.withLock {
            guard let ended, let recoveredAt else { return (calls, nil) }
            return (calls, recoveredAt.timeIntervalSince(ended))
        }
    }

    func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        guard ChaosMiddleware.isRefresh(request) else { return try await next(request) }
        let now = serverClock.now
        let failing: Bool = lock.withLock {
            guard let until else { return false }
            if now < until {
                calls += 1
                return true
            }
            if ended == nil { ended = until }
            return false
        }
        guard failing, let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: 500, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
        else {
            let answer = try await next(request)
            if answer.1.statusCode == 200 { lock.withLock { if ended != nil, recoveredAt == nil { recoveredAt = now } } }
            return answer
        }
        network.serverFailed()
        return (Data(Self.answer.utf8), response)
    }
}

extension AppLife {
    /// The outage's length and the goals it is held to (docs/RELIABILITY.md, "The field").
    static let outageLength: TimeInterval = 6 * 3_600
    /// Refreshes per device-hour in the foreground during the outage: supabase-swift sends about 240.
    static let outageCallsPerHourGoal = 30.0
    /// From the fix to a refreshed session: the backoff's cap, plus one foreground step.
    static let outageRecoveryGoal: TimeInterval = SessionDefaults.backoffCap + 60

    /// Row 2: the app stays in the foreground through a six-hour `/token`
    /// outage, making a request every five minutes, then until it has
    /// refreshed (at most 30 minutes more). Faults are off meanwhile: the
    /// outage is the fault, and the recovery time is the client's own.
    func tokenOutage() async throws {
        guard let outage = field.outage else { return }
        report.field.outages += 1
        trace.note("token endpoint answers 500 for 6 h")
        network.setFaultRate(0)
        offlineUntil = -1
        network.isOffline = false
        outage.start(lasting: Self.outageLength)
        if app == nil {
            let relaunched = launch()
            app = relaunched
            report.relaunches += 1
            await restore(relaunched)
        } else if let app {
            await app.client.resume()
        }
        await settle()
        guard let app else { return }
        var minutes = 0
        while Double(minutes) * 60 < Self.outageLength + 1_800 {
            await foreground(60)
            minutes += 1
            if minutes % 5 == 0 { try await record(await Self.request(app.client, makeRequest())) }
            if Double(minutes) * 60 > Self.outageLength, outage.figures.recovery != nil { break }
        }
        let (calls, recovery) = outage.figures
        report.field.outageCalls += calls
        report.field.outageWorstRecovery = max(report.field.outageWorstRecovery, recovery ?? .infinity)
        report.field.outageWorstCallsPerHour = max(report.field.outageWorstCallsPerHour, Double(calls) / (Self.outageLength / 3_600))
        trace.note("outage over: \(calls) refreshes in 6 h, recovered \(recovery.map { String(format: "%.0f s", $0) } ?? "never") after the fix")
        network.setFaultRate(parameters.faultRate)
    }
}
