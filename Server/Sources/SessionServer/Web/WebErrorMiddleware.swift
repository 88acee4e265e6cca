import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// A page's failure as a page: the status GoTrue would give the same error,
/// its message, and `Retry-After` when there is one. Anything else is the
/// generic 500 page, never a stack or SQL.
struct WebErrorMiddleware: RouterMiddleware {
    typealias Context = AuthRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as AuthError {
            let mapped = GoTrueError(error)
            var response = WebPages.page("message", ["title": "Not done", "error": error.message], status: mapped.status)
            if let retry = mapped.headers[.retryAfter] { response.headers[.retryAfter] = retry }
            return response
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            context.logger.error("A page failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return WebPages.page("message", ["title": "Something went wrong", "error": AuthError.internalFailure.message], status: .internalServerError)
        }
    }
}
