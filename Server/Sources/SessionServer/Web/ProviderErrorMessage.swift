/// What `/account` says when a provider answers a sign-in with an error
/// (issue 37, item 12): a fixed sentence for each error code of RFC 6749,
/// section 4.1.2.1, never the provider's `error_description`, which anyone
/// can put in a link to the page. The provider's text goes to the log.
enum ProviderErrorMessage {
    static func message(forCode code: String?) -> String {
        switch code {
        case "access_denied":
            "The sign-in was cancelled at the provider. Choose the provider again to retry, or sign in another way."
        case "temporarily_unavailable", "server_error":
            "The provider could not sign you in just now. Please try again in a few minutes."
        case "invalid_request", "unauthorized_client", "unsupported_response_type", "invalid_scope":
            "The provider refused this sign-in: the settings for it on this server need attention. Sign in another way for now."
        default:
            "The provider did not sign you in. Please try again, or sign in another way."
        }
    }
}
