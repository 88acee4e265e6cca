import SessionCore

extension ErrorCode {
    /// The action needs fresh proof: send `current_password`, or sign in again and retry.
    /// The session itself is still valid.
    public static let reauthenticationRequired = ErrorCode("REAUTHENTICATION_REQUIRED")
}
