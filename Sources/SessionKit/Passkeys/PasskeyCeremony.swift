import Foundation

/// Whatever makes and uses passkeys: the platform's sheet
/// (`PlatformPasskeyCeremony` on Apple platforms), a web view, a security
/// key, or a software authenticator in tests.
///
/// A ceremony is handed the server's options (the WebAuthn Level 3
/// `PublicKeyCredentialCreationOptionsJSON` / `PublicKeyCredentialRequestOptionsJSON`,
/// read as ``PasskeyCreationOptions`` / ``PasskeyRequestOptions``) and answers
/// the authenticator's response (`RegistrationResponseJSON` /
/// `AuthenticationResponseJSON`, as ``PasskeyRegistrationCredential`` /
/// ``PasskeyAssertionCredential``). It never talks to the auth server:
/// ``SessionClient`` fetches the options and sends the answer (docs/PASSKEYS.md).
///
/// - Important: when the person closes the sheet, throw
///   ``SessionError/cancelled``. A cancelled ceremony changes nothing: a
///   sign-in leaves the state as it was, and a registration keeps the session.
public protocol PasskeyCeremony: Sendable {
    /// Creates a credential (`navigator.credentials.create()`).
    ///
    /// - Throws: ``SessionError/cancelled`` when the person cancels.
    func createCredential(_ options: PasskeyCreationOptions) async throws(SessionError) -> PasskeyRegistrationCredential

    /// Signs the challenge with one of the person's passkeys (`navigator.credentials.get()`).
    ///
    /// - Throws: ``SessionError/cancelled`` when the person cancels.
    func getAssertion(_ options: PasskeyRequestOptions) async throws(SessionError) -> PasskeyAssertionCredential
}
