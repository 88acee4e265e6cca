import SessionCore

extension GatewayErrorCode {
    /// The action needs fresh proof: send `current_password`, or sign in again and retry.
    /// The session itself is still valid.
    public static let reauthenticationRequired = GatewayErrorCode("REAUTHENTICATION_REQUIRED")
}
