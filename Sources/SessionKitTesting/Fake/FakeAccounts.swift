import Foundation

/// The fake's records for anonymous users, pending email changes and identity
/// linking (GoTrue's `users.is_anonymous`, `email_change*` columns and `flow_state`),
/// in ``FakeAuthBackend``'s one stored property for them.
struct FakeAccounts {
    /// GoTrue's `EXTERNAL_ANONYMOUS_USERS_ENABLED`: off unless a test switches it on.
    var anonymousSignIns = false

    struct EmailChange {
        var newEmail: String
        /// The code mailed to the new address.
        var newCode: String
        /// The code mailed to the current address; `nil` when only the new one must confirm (an anonymous user).
        var currentCode: String?
        var newConfirmed = false
        var currentConfirmed = false
    }

    /// Pending email changes by user id.
    var emailChanges: [String: EmailChange] = [:]

    struct Link {
        let userID: String
        /// The session that started the link: the code's exchange answers its successor.
        let sessionID: String
        let provider: String
        let challenge: String
        let redirectTo: URL
        /// The provider's account id, once the person consented.
        var subject: String?
    }

    /// Linking flows started at `/user/identities/authorize`, by the `state` of the provider URL.
    var linksStarted: [String: Link] = [:]
    /// One-time codes of approved linking flows.
    var linkCodes: [String: Link] = [:]
}
