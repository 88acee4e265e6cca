import Foundation
import Hummingbird
import Logging
import Logging

/// One log line per request: method, path, status, duration. Never the
/// query string (tokens can travel there) and never a header value.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Duration is measured, not compared with any expiry, so the monotonic clock is right here.
        let start = ContinuousClock.now
        let status: Int
        do {
            let response = try await next(request, context)
            status = response.status.code
            log(request, context: context, status: status, start: start)
            return response
        } catch let error as any HTTPResponseError {
            log(request, context: context, status: error.status.code, start: start)
            throw error
        } catch {
            log(request, context: context, status: 500, start: start)
            throw error
        }
    }

    private func log(_ request: Request, context: Context, status: Int, start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        metrics.request(status: status)
        context.logger.info(
            "\(request.method.rawValue) \(request.uri.path) \(status) \(String(format: "%.1f", milliseconds))ms")
    }
}
