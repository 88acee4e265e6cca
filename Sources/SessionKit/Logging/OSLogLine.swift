import Logging

/// How ``OSLogHandler`` splits one log event into what the unified log shows
/// to anyone (public) and what it redacts as `<private>` on a device without
/// a debugging profile.
///
/// Kept apart from the `os.Logger` binding so it is compiled and tested on
/// Linux. Public is the exception: a message from one of SessionKit's own
/// loggers (fixed text: its call sites interpolate nothing), and metadata
/// under keys SessionKit fills only with token-free values (an HTTP status,
/// a sign-out scope, a number of seconds). Everything else — an app's own
/// messages, error reasons that may carry a server's words, user ids, token
/// fingerprints, any key we do not know — is private.
struct OSLogLine: Sendable, Hashable {
    /// Metadata keys whose values SessionKit writes and that never hold a token or personal data.
    static let publicMetadataKeys: Set<String> = ["status", "scope", "seconds", "provider", "purpose", "host", "fields"]

    var publicText: String
    var privateText: String

    /// - Parameters:
    ///   - label: the logger's label; SessionKit's own start with `SessionKit`.
    ///   - message: the event's message.
    ///   - metadata: handler, provider and event metadata, merged.
    init(label: String, message: String, metadata: Logger.Metadata) {
        let ownMessage = label == "SessionKit" || label.hasPrefix("SessionKit.")
        var publicParts = ownMessage ? [message] : []
        var privateParts = ownMessage ? [] : [message]
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            if ownMessage, Self.publicMetadataKeys.contains(key) {
                publicParts.append("\(key)=\(value)")
            } else {
                privateParts.append("\(key)=\(value)")
            }
        }
        publicText = publicParts.joined(separator: " ")
        privateText = privateParts.joined(separator: " ")
    }
}
