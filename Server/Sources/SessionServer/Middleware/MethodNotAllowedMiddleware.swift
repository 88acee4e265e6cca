import HTTPTypes
import Hummingbird
import SessionCore

/// Answers 405 with `Allow` when the path is served but not with the
/// request's method; Hummingbird's router answers 404 for both. Added to the
/// router last, so it wraps only the not-found responder: a route's own 404
/// (another user's row) is never touched.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each served path as components (`{id}` matches any one component), with its methods.
    let routes: [(components: [Substring], methods: Set<HTTPRequest.Method>)]

    init(routes: [(path: String, method: HTTPRequest.Method)]) {
        var byPath: [String: Set<HTTPRequest.Method>] = [:]
        for route in routes { byPath[route.path, default: []].insert(route.method) }
        self.routes = byPath.map { (Self.components($0.key), $0.value) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = Self.components(request.uri.path)
            let allowed = routes.filter { Self.matches($0.components, path) }.reduce(into: Set()) { $0.formUnion($1.methods) }
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            let message = "\(request.method.rawValue) is not allowed here; use \(allow)."
            if path.first == "auth" {
                throw GoTrueError(
                    status: .methodNotAllowed, errorCode: GoTrueErrorCode("method_not_allowed"), message: message,
                    headers: [.allow: allow])
            }
            throw GatewayError(
                status: .methodNotAllowed, code: GatewayErrorCode("METHOD_NOT_ALLOWED"), message: message, headers: [.allow: allow])
        }
    }

    private static func components(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    private static func matches(_ route: [Substring], _ path: [Substring]) -> Bool {
        route.count == path.count && zip(route, path).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }
}
