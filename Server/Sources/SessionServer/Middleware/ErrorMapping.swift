import Hummingbird
import SessionCore
import Logging
import NIOCore

/// Turns anything a route threw into a domain error, so each API family maps
/// errors in exactly one place and nothing unexpected becomes a leaky 500.
enum ErrorMapping {
    static func domainError(_ error: any Error, logger: Logger) -> AuthError {
        switch error {
        case let error as AuthError:
            return error
        case is NIOTooManyBytesError:
            return .payloadTooLarge
        case let error as HTTPError:
            switch error.status.code {
            case 404: return .notFound
            case 413: return .payloadTooLarge
            case 400..<500: return .invalidRequest(field: nil, error.body ?? "The request is not valid.")
            default: break
            }
        default:
            break
        }
        // Log the type only: an error's description may hold SQL or a bound value.
        logger.error("Unexpected error", metadata: ["error.type": "\(String(reflecting: type(of: error)))"])
        return .internalFailure
    }
}

/// Answers every error of the GoTrue routes in GoTrue's shape.
struct GoTrueErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as GoTrueError {
            throw error
        } catch {
            let mapped = GoTrueError(ErrorMapping.domainError(error, logger: context.logger))
            if mapped.status == .unauthorized || mapped.status == .forbidden {
                metrics.unauthorized(code: mapped.errorCode.rawValue)
            }
            throw mapped
        }
    }
}

/// Answers every error of the gateway routes in the envelope.
struct GatewayErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as GatewayError {
            throw error
        } catch {
            let mapped = GatewayError(ErrorMapping.domainError(error, logger: context.logger))
            if mapped.status == .unauthorized { metrics.unauthorized(code: mapped.code.rawValue) }
            throw mapped
        }
    }
}
