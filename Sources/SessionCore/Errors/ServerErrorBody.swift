import Foundation

/// An error body from either half of the wire, parsed without trusting it.
///
/// Understands the gateway envelope, GoTrue's two shapes
/// (`{"code": 400, "error_code": …, "msg": …}` and, with
/// `X-Supabase-Api-Version: 2024-01-01`, `{"code": "…", "message": …}`) and
/// OAuth 2.0's `{"error": …, "error_description": …}`.
public struct ServerErrorBody: Sendable, Hashable {
    /// The gateway code, when the body was an envelope.
    public var code: GatewayErrorCode?
    /// The GoTrue or OAuth code, when the body was one of those shapes.
    public var goTrueErrorCode: GoTrueErrorCode?
    /// The human message the server sent; empty if it sent none.
    public var message: String

    public init(code: GatewayErrorCode? = nil, goTrueErrorCode: GoTrueErrorCode? = nil, message: String) {
        self.code = code
        self.goTrueErrorCode = goTrueErrorCode
        self.message = message
    }

    /// Parses `data` as any known error shape.
    ///
    /// - Returns: `nil` when the body is not JSON or matches no known shape;
    ///   the caller then classifies the response by its status alone.
    public static func parse(_ data: Data) -> ServerErrorBody? {
        guard data.count <= 64 * 1024, !data.isEmpty else { return nil }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            // Not JSON (an HTML error page from a proxy, say): no shape to read.
            return nil
        }
        guard let fields = object as? [String: Any] else { return nil }

        if let error = fields["error"] as? [String: Any], let code = error["code"] as? String {
            return ServerErrorBody(code: GatewayErrorCode(code), message: error["message"] as? String ?? "")
        }
        if let code = fields["error_code"] as? String {
            let message = fields["msg"] as? String ?? fields["message"] as? String ?? ""
            return ServerErrorBody(goTrueErrorCode: GoTrueErrorCode(code), message: message)
        }
        if let code = fields["code"] as? String {
            return ServerErrorBody(goTrueErrorCode: GoTrueErrorCode(code), message: fields["message"] as? String ?? "")
        }
        if let code = fields["error"] as? String {
            let message = fields["error_description"] as? String ?? fields["msg"] as? String ?? ""
            return ServerErrorBody(goTrueErrorCode: GoTrueErrorCode(code), message: message)
        }
        if let message = fields["msg"] as? String ?? fields["message"] as? String {
            return ServerErrorBody(message: message)
        }
        return nil
    }
}
