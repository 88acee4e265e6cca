import Foundation
import SessionCore

/// Passkeys: sign-in without a password or a code, and the account's passkeys
/// (GoTrue's `/auth/v1/passkeys`, docs/PASSKEYS.md).
extension SessionClient {
    /// Signs in with a passkey the person picks (a discoverable credential:
    /// no email is asked for). The session is saved (verified) before this returns.
    ///
    /// ```swift
    /// let ceremony = PlatformPasskeyCeremony { SystemWebAuthenticationPresenter.keyWindow() }
    /// let session = try await client.signInWithPasskey(using: ceremony)
    /// ```
    ///
    /// - Parameter ceremony: runs the authenticator (`PlatformPasskeyCeremony` on Apple platforms).
    /// - Throws: ``SessionError/cancelled`` when the person closes the sheet (the state is
    ///   as it was: a signed-in person stays signed in), ``SessionError/invalidCredentials`` when the
    ///   server does not accept the passkey, ``SessionError/unsupported`` when the server has
    ///   passkeys off or the backend is not GoTrue, ``SessionError/network``, ``SessionError/persistenceFailed``.
    @discardableResult
    public func signInWithPasskey(using ceremony: any PasskeyCeremony) async throws(SessionError) -> Session {
        try await PasskeySignIn().signIn(using: ceremony, on: self)
    }

    /// Adds a passkey to the signed-in account.
    ///
    /// - Parameters:
    ///   - friendlyName: the name the account page shows (1 to 120 characters); GoTrue
    ///     takes no name at registration, so it is set by a rename right after. A rename
    ///     that fails leaves the passkey registered, without the name.
    ///   - ceremony: runs the authenticator.
    /// - Throws: ``SessionError/cancelled`` when the person closes the sheet (the session is kept),
    ///   ``SessionError/conflict`` (registered already, or the account holds the most it may),
    ///   ``SessionError/invalidCredentials`` when the server refuses the new credential.
    @discardableResult
    public func registerPasskey(friendlyName: String? = nil, using ceremony: any PasskeyCeremony) async throws(SessionError)
        -> Passkey
    {
        try await PasskeyRegistration().register(friendlyName: friendlyName, using: ceremony, on: self)
    }

    /// The signed-in account's passkeys, oldest first.
    public func passkeys() async throws(SessionError) -> [Passkey] {
        try await PasskeyRegistration().list(on: self)
    }

    /// Renames one of the account's passkeys.
    ///
    /// - Throws: ``SessionError/notFound`` when the account has no passkey with that id.
    @discardableResult
    public func renamePasskey(id: String, friendlyName: String) async throws(SessionError) -> Passkey {
        try await PasskeyRegistration().rename(id: id, to: friendlyName, on: self)
    }

    /// Removes one of the account's passkeys (the session is kept, even one that began with it).
    ///
    /// - Throws: ``SessionError/notFound`` when the account has no passkey with that id.
    public func deletePasskey(id: String) async throws(SessionError) {
        try await PasskeyRegistration().delete(id: id, on: self)
    }
}
