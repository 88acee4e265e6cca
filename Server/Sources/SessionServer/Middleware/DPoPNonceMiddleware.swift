import Foundation
import HTTPTypes
import Hummingbird
import SessionCore

/// With `--dpop-nonce`, every answer to a request that carried a `DPoP` proof
/// names the nonce for the client's next proof (`DPoP-Nonce`, RFC 9449 §8):
/// successes and refusals alike, so a client always holds a current one
/// (docs/DPOP.md, "Nonces"). Requests without a proof are left alone.
struct DPoPNonceMiddleware<Context: RequestContext>: RouterMiddleware {
    let nonces: DPoPNonces
    let clock: any SessionClock

    static var header: HTTPField.Name { HTTPField.Name("DPoP-Nonce")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[DPoPGate.header] != nil else { return try await next(request, context) }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // The route groups' error middlewares have given the error its shape; rendered
            // here so the header can be added (Hummingbird renders it the same way).
            response = try error.response(from: request, context: context)
        }
        response.headers[Self.header] = nonces.nonce(at: clock.now)
        return response
    }
}
