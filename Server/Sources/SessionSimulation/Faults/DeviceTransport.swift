import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionKit

/// The sockets of one device: a short request timeout while faults are being
/// injected, so a stall or a lost response costs a second of wall time rather
/// than thirty; the standard timeouts on a clean network (sign-up, the final
/// relaunch), where a slow answer from a busy machine is not a fault the run
/// meant to inject and must not change what the harness checks.
struct DeviceTransport: HTTPTransport {
    let network: DeviceNetwork
    let faulty: URLSessionTransport
    let clean: URLSessionTransport

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await (network.injectsFaults ? faulty : clean).send(request)
    }
}
