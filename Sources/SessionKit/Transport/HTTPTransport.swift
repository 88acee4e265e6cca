import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request. ``SessionClient`` does all its networking through one.
///
/// Implement it to route requests through your own stack, or use
/// `SessionKitTesting`'s fake backend to test without a server.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and response, whatever the status.
    ///
    /// - Throws: `URLError` (or any error) when no response arrived.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
