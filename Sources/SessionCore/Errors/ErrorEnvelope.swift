/// `{"success": false, "error": {"code": …, "message": …}}`: every gateway error.
public struct ErrorEnvelope: Sendable, Hashable, Codable {
    public struct Body: Sendable, Hashable, Codable {
        public var code: GatewayErrorCode
        public var message: String
        public init(code: GatewayErrorCode, message: String) {
            self.code = code
            self.message = message
        }
    }

    public var success: Bool
    public var error: Body

    public init(code: GatewayErrorCode, message: String? = nil) {
        self.success = false
        self.error = Body(code: code, message: message ?? code.defaultMessage)
    }
}
