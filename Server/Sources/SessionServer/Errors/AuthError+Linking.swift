import HTTPTypes
import SessionCore

/// Identity linking's refusals, in GoTrue's words, statuses and codes
/// (`internal/api/identity.go`, `middleware.go`; docs/ACCOUNTS.md, "Linked identities (server)").
extension AuthError {
    static func linkingRefused(_ status: Int, _ code: String, _ message: String) -> AuthError {
        AuthError(.linkingRefused, message, goTrue: (status, code))
    }

    /// `/user/identities/…` while `--manual-linking` is off: GoTrue's `requireManualLinkingEnabled`.
    public static let manualLinkingDisabled = linkingRefused(404, "manual_linking_disabled", "Manual linking is disabled")
    /// The provider account is already linked to this user.
    public static let identityAlreadyLinked = linkingRefused(422, "identity_already_exists", "Identity is already linked")
    /// The provider account is linked to another user: never moved, never merged.
    public static let identityLinkedToAnotherUser = linkingRefused(
        422, "identity_already_exists", "Identity is already linked to another user")
    /// Unlinking would leave the person nothing to sign in with.
    public static let singleIdentityNotDeletable = linkingRefused(
        422, "single_identity_not_deletable", "User must have at least 1 identity after unlinking")
    /// No identity of the caller has this id (another user's included).
    public static let identityNotFound = linkingRefused(422, "identity_not_found", "Identity doesn't exist")
    /// The path's id is not a UUID: GoTrue's 404 `validation_failed`.
    public static let identityIDNotUUID = linkingRefused(404, "validation_failed", "identity_id must be an UUID")
    /// The `email` identity stands for the account's own address and password: this server keeps them.
    public static let emailIdentityNotUnlinkable = linkingRefused(
        422, "validation_failed",
        "The email identity cannot be unlinked on this server: the account keeps its address and password.")
    /// The user who started the link is gone.
    public static let linkingTargetNotFound = linkingRefused(422, "user_not_found", "Linking target user not found")
    /// The session that started a link ended before it finished: the link answers
    /// for that session only, never with a new one (400 `session_not_found`).
    public static let linkingSessionEnded = AuthError(
        .sessionNotFound, "The session that started this link has ended. Sign in again, then link again.")

    /// How a refusal reaches the app at its `redirect_to` when it happens in a
    /// provider callback, as GoTrue's `getErrorQueryString` builds it: `error`
    /// from the status (`server_error` for a 422), `access_denied` for a ban.
    var redirectError: OAuthRedirectError {
        let answer = GoTrueError(self)
        let error =
            switch answer.status.code {
            case _ where answer.errorCode.rawValue == "user_banned": "access_denied"
            case 400: "invalid_request"
            case 401: "unauthorized_client"
            case 403: "access_denied"
            default: "server_error"
            }
        return OAuthRedirectError(error: error, errorCode: answer.errorCode, description: answer.message)
    }
}
