import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An interceptor around every request a ``SessionClient`` sends, in the
/// shape of swift-openapi-runtime's `ClientMiddleware`: add headers, log,
/// measure, or short-circuit, then call `next`.
public protocol TransportMiddleware: Sendable {
    func intercept(
        _ request: URLRequest,
        next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse)
}

/// A transport that runs `middlewares` (first is outermost) around `base`.
public struct MiddlewareTransport: HTTPTransport {
    public var base: any HTTPTransport
    public var middlewares: [any TransportMiddleware]

    public init(base: any HTTPTransport, middlewares: [any TransportMiddleware]) {
        self.base = base
        self.middlewares = middlewares
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        // Chained in reverse so the first middleware sees the request first.
        var next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse) = { [base] in
            try await base.send($0)
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { try await middleware.intercept($0, next: inner) }
        }
        return try await next(request)
    }
}
