/// SessionCore holds the wire types both halves of SessionKit share: the
/// session body, the user, error codes and envelopes, JWT claim decoding
/// (without verification) and the clock every expiry decision reads.
public enum SessionCoreVersion {
    /// The version of the SessionKit wire contract this build speaks.
    public static let contract = "1"
}
