import Foundation
import SessionKit

/// A ``WebAuthenticationPresenter`` that answers as `ASWebAuthenticationSession`
/// would, without a browser: the person consents at the fake provider, closes
/// the sheet, or the browser comes back to some URL.
///
/// ```swift
/// let presenter = ScriptedWebAuthenticationPresenter(.approve(at: backend, email: "ada@example.com"))
/// let session = try await WebOAuthSignIn(client: client, presenter: presenter)
///     .signIn(provider: "strava", redirectTo: URL(string: "myapp://oauth-callback")!)
/// ```
public actor ScriptedWebAuthenticationPresenter: WebAuthenticationPresenter {
    /// What happens when the sheet is shown.
    public enum Answer: Sendable {
        /// The person signs in and consents at `backend`'s provider: the callback carries a code.
        case approve(at: FakeAuthBackend, email: String)
        /// The person declines at the provider: the callback carries `error=access_denied`.
        case deny(at: FakeAuthBackend)
        /// The person closes the sheet (`canceledLogin`).
        case cancel
        /// The sheet cannot be shown (no presentation anchor, say).
        case fail
        /// Hands back `url` as it is, whatever scheme was asked for: what a
        /// presenter that does not check the scheme (a hand-made web view) could do.
        /// `ASWebAuthenticationSession` itself ends only on the callback scheme.
        case redirect(to: URL)
    }

    private let answer: Answer
    /// Every presentation so far: the URL shown and the callback scheme asked for.
    public private(set) var presentations: [(url: URL, callbackScheme: String)] = []

    public init(_ answer: Answer) {
        self.answer = answer
    }

    public func present(_ url: URL, callbackScheme: String) async throws(WebAuthenticationError) -> URL {
        presentations.append((url, callbackScheme))
        let callback: URL
        switch answer {
        case .approve(let backend, let email):
            callback = try await Self.fakeProvider { try await backend.approveOAuth(url, email: email) }
        case .deny(let backend):
            callback = try await Self.fakeProvider { try await backend.denyOAuth(url) }
        case .cancel:
            throw WebAuthenticationError.cancelled.with(detail: "com.apple.AuthenticationServices.WebAuthenticationSession 1")
        case .fail:
            throw WebAuthenticationError.presentationFailed.with(detail: "com.apple.AuthenticationServices.WebAuthenticationSession 2")
        case .redirect(let url):
            callback = url
        }
        return callback
    }

    private static func fakeProvider(_ body: () async throws -> URL) async throws(WebAuthenticationError) -> URL {
        do {
            return try await body()
        } catch {
            throw WebAuthenticationError.presentationFailed.with(detail: "the fake provider could not read the URL: \(error)")
        }
    }
}
