#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import Foundation

/// The system's passkey sheet (iCloud Keychain and the passkey providers the
/// person set up) as a ``PasskeyCeremony``: `ASAuthorizationPlatformPublicKeyCredentialProvider`
/// for the options' RP ID, run by an `ASAuthorizationController`.
///
/// A thin binding: reading the server's options, the requests to the server
/// and everything that can touch the session live in code compiled and
/// tested on every platform. The app needs the `webcredentials:<RP ID>`
/// associated domain, and the server must serve the matching
/// `apple-app-site-association` (docs/PASSKEYS.md, "RP ID and origins").
/// Keep the ceremony alive until the call returns (a `@State` or a property).
///
/// ```swift
/// let passkeys = PlatformPasskeyCeremony { SystemWebAuthenticationPresenter.keyWindow() }
/// try await client.signInWithPasskey(using: passkeys)
/// ```
@available(iOS 17.0, macOS 14.0, visionOS 1.0, *)
@MainActor
public final class PlatformPasskeyCeremony: NSObject, PasskeyCeremony {
    /// Returns the window the sheet is presented from.
    public typealias AnchorProvider = @MainActor () -> ASPresentationAnchor

    private let anchor: AnchorProvider
    /// Set while the sheet is up; resumed once by a delegate callback.
    private var pending: CheckedContinuation<Answer, any Error>?
    /// ASAuthorizationController holds its delegate weakly; we hold the controller.
    private var controller: ASAuthorizationController?

    /// What is read from the credential, on the main thread Apple calls back on: only Sendable values cross over.
    private enum Answer: Sendable {
        case registration(PasskeyRegistrationCredential)
        case assertion(PasskeyAssertionCredential)
    }

    public init(anchor: @escaping AnchorProvider) {
        self.anchor = anchor
    }

    /// Shows the sheet that saves a new passkey for the options' RP ID and user.
    ///
    /// - Throws: ``SessionError/cancelled`` when the person closes it (or another
    ///   passkey sheet is showing), ``SessionError/requestFailed`` when the system refuses.
    public func createCredential(_ options: PasskeyCreationOptions) async throws(SessionError) -> PasskeyRegistrationCredential {
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.relyingPartyID)
        let request = provider.createCredentialRegistrationRequest(
            challenge: options.challenge, name: options.userName, userID: options.userID)
        request.userVerificationPreference = Self.preference(options.userVerification)
        guard case .registration(let credential) = try await perform(request) else {
            throw SessionError.requestFailed.with(message: "The passkey sheet answered with a sign-in, not a new passkey.")
        }
        return credential
    }

    /// Shows the sheet that signs the options' challenge with a passkey the person picks.
    ///
    /// - Throws: ``SessionError/cancelled`` when the person closes it (or another
    ///   passkey sheet is showing), ``SessionError/requestFailed`` when the system refuses.
    public func getAssertion(_ options: PasskeyRequestOptions) async throws(SessionError) -> PasskeyAssertionCredential {
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.relyingPartyID)
        let request = provider.createCredentialAssertionRequest(challenge: options.challenge)
        request.userVerificationPreference = Self.preference(options.userVerification)
        guard case .assertion(let credential) = try await perform(request) else {
            throw SessionError.requestFailed.with(message: "The passkey sheet answered with a new passkey, not a sign-in.")
        }
        return credential
    }

    /// The server's `userVerification` (GoTrue asks `required`: it refuses an answer without the UV flag).
    private static func preference(_ value: String?) -> ASAuthorizationPublicKeyCredentialUserVerificationPreference {
        switch value {
        case "required": .required
        case "discouraged": .discouraged
        default: .preferred
        }
    }

    private func perform(_ request: ASAuthorizationRequest) async throws(SessionError) -> Answer {
        guard pending == nil else {
            throw SessionError.cancelled.with(message: "A passkey sheet is already showing.")
        }
        do {
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
                pending = continuation
                let controller = ASAuthorizationController(authorizationRequests: [request])
                controller.delegate = self
                controller.presentationContextProvider = self
                self.controller = controller
                controller.performRequests()
            }
        } catch let error as ASAuthorizationError where error.code == .canceled {
            // The person closed the sheet: a cancellation, never a sign-out (docs/PASSKEYS.md).
            throw SessionError.cancelled.with(message: "The passkey sheet was closed.")
        } catch let error as SessionError {
            throw error
        } catch let error as ASAuthorizationError {
            throw SessionError.requestFailed.with(
                message: "The passkey could not be used: \(error.localizedDescription)",
                underlying: "ASAuthorizationError \(error.code.rawValue)")
        } catch {
            throw SessionError.requestFailed.with(message: "The passkey could not be used: \(error.localizedDescription)")
        }
    }

    private func finish(_ result: Result<Answer, any Error>) {
        controller = nil
        guard let pending else { return }
        self.pending = nil
        pending.resume(with: result)
    }

    /// Reads Apple's credential into the WebAuthn JSON forms' values (no transports
    /// nor attachment: Apple's credential does not say them, and the server needs neither).
    private nonisolated static func answer(from credential: any ASAuthorizationCredential) -> Answer? {
        if let registration = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration {
            // Without an attestation object the server cannot read the public key: no passkey.
            guard let attestation = registration.rawAttestationObject else { return nil }
            return .registration(
                PasskeyRegistrationCredential(
                    credentialID: registration.credentialID, clientDataJSON: registration.rawClientDataJSON,
                    attestationObject: attestation))
        }
        if let assertion = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion {
            // The properties are implicitly unwrapped on Apple's pages: read them as optionals.
            guard let authenticatorData = assertion.rawAuthenticatorData as Data?, let signature = assertion.signature as Data?
            else { return nil }
            return .assertion(
                PasskeyAssertionCredential(
                    credentialID: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                    authenticatorData: authenticatorData, signature: signature, userHandle: assertion.userID as Data?))
        }
        return nil
    }
}

@available(iOS 17.0, macOS 14.0, visionOS 1.0, *)
extension PlatformPasskeyCeremony: ASAuthorizationControllerDelegate {
    public nonisolated func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        // Read here, on the main thread Apple calls back on; only Sendable values cross over.
        let answer = Self.answer(from: authorization.credential)
        MainActor.assumeIsolated {
            if let answer {
                finish(.success(answer))
            } else {
                finish(.failure(SessionError.requestFailed.with(message: "The passkey sheet answered without a passkey's data.")))
            }
        }
    }

    public nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        MainActor.assumeIsolated { finish(.failure(error)) }
    }
}

@available(iOS 17.0, macOS 14.0, visionOS 1.0, *)
extension PlatformPasskeyCeremony: ASAuthorizationControllerPresentationContextProviding {
    public nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }
}
#endif
