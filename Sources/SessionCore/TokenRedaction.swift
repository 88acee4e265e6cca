/// Shortens a secret for logs: at most its first 6 characters survive.
///
/// Every log line that mentions a token goes through this, so a grep of
/// captured logs for any full token finds nothing.
public enum TokenRedaction {
    /// Returns the first 6 characters of `token` followed by an ellipsis.
    public static func prefix(_ token: String) -> String {
        guard !token.isEmpty else { return "<empty>" }
        return String(token.prefix(6)) + "…"
    }
}
