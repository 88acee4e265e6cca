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
        Self.checkBearer(request, network: network, serverNow: serverClock.now)

        var request = request
        if Self.isRefresh(request), process.takeRefreshKill() {
            // Killed while the refresh is on the wire: the server rotates and
            // commits, the answer is cut off, and the process is gone before it
            // could have read it. (A reset rather than a lost response: the
            // process is dead either way, and a reset costs no timeout.)
            network.countKillReset()
            request.setValue(ProxyFault.resetMidResponse.name, forHTTPHeaderField: FaultProxy.faultHeader)
            do { _ = try await next(request) } catch {}
            process.kill()
            throw URLError(.cancelled)
        }
        let drawn = network.drawFault()
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
            if let drawn, (error as? URLError)?.code == .cancelled || error is CancellationError {
                network.countCancelledDraw(drawn)
            }
            throw error
        }
        network.answered()
        return answer
    }

    /// A client that knows the server's clock never sends an access token the
    /// server already considers expired (it refreshes a leeway before `exp`).
    static func checkBearer(_ request: URLRequest, network: DeviceNetwork, serverNow: Date) {
        guard let header = request.value(forHTTPHeaderField: "Authorization"), header.hasPrefix("Bearer ") else { return }
        let claims: JWTClaims
        do {
            claims = try UnverifiedJWT(String(header.dropFirst(7))).claims
        } catch {
            return  // not a JWT: nothing to compare
        }
        if let exp = claims.exp { network.sentToken(expiringAt: exp, serverNow: serverNow) }
    }

    static func isRefresh(_ request: URLRequest) -> Bool {
        request.url?.query?.contains("grant_type=refresh_token") == true
    }
}
