import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Every request the client sends on its own executor goes through here: the
/// server's clock is learned from the auth backend's answers, reachability
/// from any, and (DPoP on) each carries a fresh proof (SessionClient+DPoP.swift).
extension SessionClient {
    /// Sends through the transport, learning reachability from every answer
    /// and the server's clock from the auth backend's own answers.
    func sendObserved(_ request: URLRequest) async -> Result<(Data, HTTPURLResponse), SessionError> {
        await sendObserved(request, bound: false)
    }

    /// ``sendObserved(_:)`` for a request that serves a session bound to the
    /// DPoP key (`bound`: a refresh of a bound session), so a missing key is
    /// reported as lost rather than replaced.
    func sendObserved(_ request: URLRequest, bound: Bool) async -> Result<(Data, HTTPURLResponse), SessionError> {
        let (first, clockMoved) = await sendObservedOnce(request, bound: bound)
        // A proof refused by an answer whose `Date` just moved the estimate of the server's
        // clock was dated by the old estimate (a device clock hours off, the first request):
        // once more, on the server's time (docs/DPOP.md, "Clocks").
        guard proofs != nil, clockMoved, case .success(let answer) = first, DPoPWire.refusesProof(answer.1, answer.0) else {
            return first
        }
        logger.info("A DPoP proof was refused as the server's clock became known; sending once more")
        return await sendObservedOnce(request, bound: bound).answer
    }

    private func sendObservedOnce(
        _ request: URLRequest, bound: Bool
    ) async -> (answer: Result<(Data, HTTPURLResponse), SessionError>, clockMoved: Bool) {
        var clockMoved = false
        let answer: (Data, HTTPURLResponse)
        let sentAt = clock.now
        switch await transportSend(request, bound: bound, offset: machine.offset.seconds) {
        case .success(let received): answer = received
        case .failure(let error): return (.failure(error), false)
        }
        let now = clock.now
        // Another host's clock (an API, a CDN) says nothing about when the auth server's tokens expire.
        if !planted(.ignoreClockOffset), origins.isBackend(request.url),
            machine.offset.observe(
                dateHeader: answer.1.value(forHTTPHeaderField: "Date"), age: answer.1.value(forHTTPHeaderField: "Age"),
                sentAt: sentAt, receivedAt: now)
        {
            clockMoved = true
            logger.info("Estimated the server clock offset", metadata: ["seconds": "\(Int(machine.offset.seconds))"])
            if let current { apply(machine.rescheduled(current, now: now)) }
            await recordMovedClockOffset()
        }
        // Back online only when the auth server itself answered (a captive portal answers anything).
        if isOffline, let current, !machine.isExpired(current, now: now), origins.isBackend(request.url) {
            isOffline = false
            broadcaster.set(.signedIn(current))
            broadcaster.publish(.online)
        }
        return (.success(answer), clockMoved)
    }
}
