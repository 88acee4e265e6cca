#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import Foundation

/// Sign in with Apple in one call: runs `ASAuthorizationController` for an
/// Apple ID with a fresh ``AppleSignInNonce``, then hands the ID token and
/// the name Apple sent (first authorization only) to
/// ``SessionClient/signInWithApple(idToken:nonce:fullName:savingName:)``.
///
/// A thin binding: the nonce, the request to the server and everything that
/// can lose a session live in code compiled and tested on every platform.
/// Keep the controller alive until `signIn` returns (a `@State` or a property).
///
/// ```swift
/// let apple = AppleSignInController { SystemWebAuthenticationPresenter.keyWindow() }
/// let result = try await apple.signIn(with: client, savingName: true)
/// // result.fullName: Apple sends it once; keep it.
/// ```
@MainActor
public final class AppleSignInController: NSObject {
    /// Returns the window Apple's sheet is presented from.
    public typealias AnchorProvider = @MainActor () -> ASPresentationAnchor

    private let anchor: AnchorProvider
    /// Set while Apple's sheet is up; resumed once by a delegate callback.
    private var pending: CheckedContinuation<Credential, any Error>?
    /// ASAuthorizationController holds its delegate weakly; we hold the controller.
    private var controller: ASAuthorizationController?

    /// What is read from Apple's credential, on the main thread Apple calls back on.
    private struct Credential: Sendable {
        let idToken: String
        let fullName: AppleFullName?
    }

    public init(anchor: @escaping AnchorProvider) {
        self.anchor = anchor
    }

    /// Asks Apple for the person's Apple ID, then signs in with its ID token.
    ///
    /// - Parameters:
    ///   - scopes: what to ask Apple for; Apple answers name and email on the first sign-in only.
    ///   - savingName: write the name Apple sent into the user's metadata.
    /// - Returns: the session and the name (first authorization only).
    /// - Throws: ``SessionError/oauthDenied`` when the person cancels,
    ///   ``SessionError/oauthFailed`` when Apple fails or gives no token,
    ///   ``SessionError/cancelled`` when another sign-in is already showing,
    ///   and what ``SessionClient/signInWithApple(idToken:nonce:)`` throws.
    public func signIn(
        with client: SessionClient, scopes: [ASAuthorization.Scope] = [.fullName, .email], savingName: Bool = false
    ) async throws(SessionError) -> AppleSignInResult {
        guard pending == nil else {
            throw SessionError.cancelled.with(message: "A sign-in with Apple is already showing.")
        }
        let nonce = AppleSignInNonce()
        let request = ASAuthorizationAppleIDProvider().createRequest()
        request.requestedScopes = scopes
        request.nonce = nonce.hashed
        let credential: Credential
        do {
            credential = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Credential, any Error>) in
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
        return try await client.signInWithApple(
            idToken: credential.idToken, nonce: nonce.raw, fullName: credential.fullName, savingName: savingName)
    }

    private func finish(_ result: Result<Credential, any Error>) {
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
        // Read here, on the main thread Apple calls back on; only Sendable values cross over.
        // `fullName` is set on the first authorization only
        // (https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential/fullname).
        let appleID = authorization.credential as? ASAuthorizationAppleIDCredential
        let token = appleID?.identityToken.flatMap { String(data: $0, encoding: .utf8) }
        let name = AppleFullName(appleID?.fullName)
        MainActor.assumeIsolated {
            if let token {
                finish(.success(Credential(idToken: token, fullName: name)))
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
