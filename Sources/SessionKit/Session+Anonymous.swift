import Foundation
import SessionCore

extension Session {
    /// True when the session belongs to an anonymous user: someone started
    /// with ``SessionClient/signInAnonymously(data:captchaToken:)`` who has not
    /// added an email or linked a provider yet.
    ///
    /// The user's `is_anonymous` decides when the server sent a user (it is
    /// the newer word after ``SessionClient/me()``); else the access token's
    /// `is_anonymous` claim; else `false`. Such a session is the person's only way
    /// back into their account, so ``SessionClient/signOut(scope:)`` refuses to
    /// end it (docs/ACCOUNTS.md, "Anonymous users (SDK)").
    public var isAnonymous: Bool {
        if let flag = user?.isAnonymous { return flag }
        return AnonymityClaim.of(accessToken) ?? false
    }
}
