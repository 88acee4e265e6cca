import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import SessionKitFaultProxy

/// The device side of fault injection, at the transport boundary of one
/// process: a dead process sends nothing, an offline device reaches nothing,
/// and a request drawn to meet a network fault is marked for the `FaultProxy`
/// (or sent to its refusing port), which does the damage on real sockets.
///
/// The draw happens here, from the device's seeded generator, so a life's
/// faults replay from its seed whatever other lives do on the same proxy.
public struct ChaosMiddleware: TransportMiddleware {
    let network: DeviceNetwork
    let process: SimulatedProcess
    let proxy: FaultProxy
    let serverClock: any SessionClock

    public init(network: DeviceNetwork, process: SimulatedProcess, proxy: FaultProxy, serverClock: any SessionClock) {
        self.network = network
        self.process = process
        self.proxy = proxy
        self.serverClock = serverClock
    }

    public func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        if process.isDead { throw URLError(.cancelled) }
        if network.isOffline {
            network.refusedOffline()
            throw URLError(.notConnectedToInternet)
        }
        network.begin()
        defer { network.end() }
        let serverNow = serverClock.now
        let knewClock = network.knowsClock(process)
        let bearer = Self.bearer(request)
        if case .jwt(let exp?) = bearer { network.sentToken(expiringAt: exp, serverNow: serverNow, by: process) }

        var request = request
        // The app's own origin (``AppAPIOrigin``): its `Date` teaches the client nothing (docs/PROTOCOL.md).
        let toAppOrigin = request.value(forHTTPHeaderField: AppAPIOrigin.marker) != nil
        request.setValue(nil, forHTTPHeaderField: AppAPIOrigin.marker)
        let presented = Self.presentedRefreshToken(request)
        let sent = Self.describe(request, presented: presented, bearer: bearer, serverNow: serverNow)
        if presented != nil, process.takeRefreshKill() {
            network.trace.note("\(process.label) \(sent), killed mid-refresh")
            // Killed while the refresh is on the wire: the server rotates and
            // commits, the answer is cut off, and the process is gone before it
            // could have read it. (A reset rather than a lost response: the
            // process is dead either way, and a reset costs no timeout.)
            network.countKillReset()
            if let presented { network.answers.lost(presenting: presented) }
            request.setValue(ProxyFault.resetMidResponse.name, forHTTPHeaderField: FaultProxy.faultHeader)
            do { _ = try await next(request) } catch {}
            process.kill()
            throw URLError(.cancelled)
        }
        // The captive portal's page, reached by following the proxy's 302 (the
        // client follows redirects inside its authorized origins itself now):
        // the proxy answers it before reading any fault, so none is drawn.
        let drawn = request.url?.path.hasPrefix(ProxyFault.portalPath) == true ? nil : network.drawFault()
        if let fault = drawn {
            if Self.isRefresh(request) { network.countOnRefresh(fault) }
            if let proxyFault = fault.proxyFault {
                request.setValue(proxyFault.name, forHTTPHeaderField: FaultProxy.faultHeader)
            } else if let url = request.url {
                request.url = FaultProxy.redirect(url, to: proxy.refusedURL)
            }
        }
        let answer: (Data, HTTPURLResponse)
        do {
            answer = try await next(request)
        } catch {
            network.trace.note("\(process.label) \(sent)\(drawn.map { " [\($0.rawValue)]" } ?? "") failed: \(error)")
            if let drawn, (error as? URLError)?.code == .cancelled || error is CancellationError {
                network.countCancelledDraw(drawn)
            }
            if drawn == nil, (error as? URLError)?.code == .timedOut { network.timedOutWithoutFault() }
            // Any failure after sending (a fault, a timeout on a busy machine) may hide a committed rotation.
            if let presented { network.answers.lost(presenting: presented) }
            throw error
        }
        if !toAppOrigin { network.answered(process) }
        network.trace.note(
            "\(process.label) \(sent)\(drawn.map { " [\($0.rawValue)]" } ?? "") answered \(answer.1.statusCode)"
                + (answer.1.statusCode >= 400 ? " \(String(decoding: answer.0.prefix(120), as: UTF8.self))" : ""))
        if let presented { Self.noteRefreshAnswer(answer, drawn: drawn, presented: presented, network: network) }
        // A DPoP proof the server refused for its `iat` (issue 43): charged to the client if its process knew the clock.
        if drawn == nil, request.value(forHTTPHeaderField: "DPoP") != nil, ProofRefusals.isIATRefusal(answer) {
            network.proofRefusals.refused(whileKnown: knewClock)
            let iat = ProofRefusals.issuedAt(request).map { String(format: "%+.0f s", $0.timeIntervalSince(serverNow)) } ?? "unreadable"
            network.trace.note("\(process.label) proof refused for iat (\(iat) from the server's clock when sent; clock \(knewClock ? "known" : "not known"))")
        }
        return answer
    }

    /// What a refresh's answer tells about its rotation (see `RotationAnswers`).
    static func noteRefreshAnswer(
        _ answer: (Data, HTTPURLResponse), drawn: Fault?, presented: String, network: DeviceNetwork
    ) {
        let (body, response) = answer
        if drawn?.mayLoseACommittedAnswer == true {
            network.answers.lost(presenting: presented)
        } else if drawn == nil, response.statusCode == 200 {
            network.answers.delivered(presenting: presented)
        } else if drawn == nil, String(decoding: body, as: UTF8.self).contains(GoTrueErrorCode.refreshTokenAlreadyUsed.rawValue) {
            network.answers.reuseAnswered(presenting: presented)
        }
    }

    /// The refresh token a refresh request presents; nil for any other request.
    static func presentedRefreshToken(_ request: URLRequest) -> String? {
        guard isRefresh(request), let body = request.httpBody else { return nil }
        do {
            return try JSONDecoder().decode(RefreshTokenRequest.self, from: body).refreshToken
        } catch {
            return nil  // not our body: nothing to trace
        }
    }

    /// A request as the trace shows it: method, path, the refresh token's short
    /// hash, and how long the bearer token had left on the server's clock.
    static func describe(_ request: URLRequest, presented: String?, bearer: Bearer, serverNow: Date) -> String {
        var text = "\(request.httpMethod ?? "GET") \(request.url?.path ?? "?")"
        if let presented { text += " refresh presenting \(LifeTrace.short(presented))" }
        switch bearer {
        case .jwt(let exp?): text += String(format: " bearer expires in %.0f s", exp.timeIntervalSince(serverNow))
        case .notAJWT: text += " bearer not a JWT"
        case .none, .jwt(nil): break
        }
        return text
    }

    /// What a request's `Authorization: Bearer` carries, read once per request:
    /// the trace shows it, and the expired-token invariant checks it (a client
    /// that knows the server's clock never sends a token the server already
    /// considers expired; it refreshes a leeway before `exp`).
    enum Bearer {
        case none
        case notAJWT
        case jwt(exp: Date?)
    }

    static func bearer(_ request: URLRequest) -> Bearer {
        // `DPoP <token>` too (issue 43): a bound token is held to the same rule.
        guard let header = request.value(forHTTPHeaderField: "Authorization"),
            let scheme = ["Bearer ", "DPoP "].first(where: header.hasPrefix)
        else { return .none }
        do {
            return .jwt(exp: try UnverifiedJWT(String(header.dropFirst(scheme.count))).claims.exp)
        } catch {
            return .notAJWT  // nothing to compare
        }
    }

    static func isRefresh(_ request: URLRequest) -> Bool {
        request.url?.query?.contains("grant_type=refresh_token") == true
    }
}
