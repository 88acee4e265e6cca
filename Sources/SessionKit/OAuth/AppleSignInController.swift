#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import Foundation

/// Sign in with Apple in one call: runs `ASAuthorizationController` for an
/// Apple ID with a fresh ``AppleSignInNonce``, then hands the ID token to
/// ``SessionClient/signInWithApple(idToken:nonce:)``.
///
/// A thin binding: the nonce, the request to the server and everything that
/// can lose a session live in code compiled and tested on every platform.
/// Keep the controller alive until `signIn` returns (a `@State` or a property).
///
/// ```swift
/// let apple = AppleSignInController { SystemWebAuthenticationPresenter.keyWindow() }
/// let session = try await apple.signIn(with: client)
/// ```
@MainActor
public final class AppleSignInController: NSObject {
    /// Returns the window Apple's sheet is presented from.
    public typealias AnchorProvider = @MainActor () -> ASPresentationAnchor

    private let anchor: AnchorProvider
    /// Set while Apple's sheet is up; resumed once by a delegate callback.
    private var pending: CheckedContinuation<String, any Error>?
    /// ASAuthorizationController holds its delegate weakly; we hold the controller.
    private var controller: ASAuthorizationController?

    public init(anchor: @escaping AnchorProvider) {
        self.anchor = anchor
    }

    /// Asks Apple for the person's Apple ID, then signs in with its ID token.
    ///
    /// - Parameter scopes: what to ask Apple for; Apple answers name and email on the first sign-in only.
    /// - Throws: ``SessionError/oauthDenied`` when the person cancels,
    ///   ``SessionError/oauthFailed`` when Apple fails or gives no token,
    ///   ``SessionError/cancelled`` when another sign-in is already showing,
    ///   and what ``SessionClient/signInWithApple(idToken:nonce:)`` throws.
    public func signIn(
        with client: SessionClient, scopes: [ASAuthorization.Scope] = [.fullName, .email]
    ) async throws(SessionError) -> Session {
        guard pending == nil else {
            throw SessionError.cancelled.with(message: "A sign-in with Apple is already showing.")
        }
        let nonce = AppleSignInNonce()
        let request = ASAuthorizationAppleIDProvider().createRequest()
        request.requestedScopes = scopes
        request.nonce = nonce.hashed
        let idToken: String
        do {
            idToken = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                pending = continuation
                let controller = ASAuthorizationController(authorizationRequests: [request])
                controller.delegate = self
                controller.presentationContextProvider = self
                self.controller = controller
                controller.performRequests()
            }
        } catch let error as ASAuthorizationError where error.code == .canceled {
            throw SessionError.oauthDenied
        } catch let error as SessionError {
            throw error
        } catch {
            throw SessionError.oauthFailed.with(message: "Sign in with Apple failed: \(error.localizedDescription)")
        }
        return try await client.signInWithApple(idToken: idToken, nonce: nonce.raw)
    }

    private func finish(_ result: Result<String, any Error>) {
        controller = nil
        guard let pending else { return }
        self.pending = nil
        pending.resume(with: result)
    }
}

extension AppleSignInController: ASAuthorizationControllerDelegate {
    public nonisolated func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        // Read here, on the main thread Apple calls back on; only the token (a String) crosses over.
        let token = (authorization.credential as? ASAuthorizationAppleIDCredential)?.identityToken
            .flatMap { String(data: $0, encoding: .utf8) }
        MainActor.assumeIsolated {
            if let token {
                finish(.success(token))
            } else {
                finish(.failure(SessionError.oauthFailed.with(message: "Apple's answer carried no ID token.")))
            }
        }
    }

    public nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        MainActor.assumeIsolated { finish(.failure(error)) }
    }
}

extension AppleSignInController: ASAuthorizationControllerPresentationContextProviding {
    public nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }
}
#endif
