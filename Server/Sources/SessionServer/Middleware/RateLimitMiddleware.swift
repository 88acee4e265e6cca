import Hummingbird

/// Limits gateway requests per signed-in user (after ``AuthMiddleware``),
/// answering 429 `RATE_LIMITED` with `Retry-After` when over.
struct RateLimitMiddleware<Context: AuthenticatedRequestContext>: RouterMiddleware {
    let limiter: any RateLimiting

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let key = context.identity?.userID ?? "anonymous"
        if case .limited(let seconds) = try await limiter.attempt(key) { throw AuthError.rateLimited(retryAfter: seconds) }
        return try await next(request, context)
    }
}
