import HTTPTypes
import Hummingbird

/// Resolves the client's address once per request, before any route runs
/// (docs/SERVER.md, "Behind a proxy"): the socket peer, or behind a trusted
/// proxy the rightmost `X-Forwarded-For` hop that is not one. Routes, limits
/// and audit entries read ``AuthRequestContext/clientAddress``; none reads the
/// peer or the header itself, so no route can believe a header the operator
/// did not vouch for.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AuthRequestContext
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    let trustedProxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.clientAddress = trustedProxies.clientAddress(
            peer: context.peerIP, forwardedFor: request.headers[values: Self.forwardedFor])
        return try await next(request, context)
    }
}
