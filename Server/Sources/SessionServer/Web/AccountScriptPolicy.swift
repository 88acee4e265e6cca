import HTTPTypes
import Hummingbird

/// Lets `/account`'s pages run their one served script and call this server
/// (`script-src 'self'; connect-src 'self'`) while keeping the rest of the
/// pages' Content-Security-Policy: no inline script, no other origin, no
/// framing (docs/PASSKEYS.md, "The account page"). The admin console keeps
/// running no script at all.
struct AccountScriptPolicy: RouterMiddleware {
    typealias Context = AuthRequestContext
    static let header = HTTPField.Name("Content-Security-Policy")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if let policy = response.headers[Self.header] { response.headers[Self.header] = Self.allowingScript(policy) }
        return response
    }

    static func allowingScript(_ policy: String) -> String {
        policy.contains("script-src") ? policy : policy + "; script-src 'self'; connect-src 'self'"
    }
}
