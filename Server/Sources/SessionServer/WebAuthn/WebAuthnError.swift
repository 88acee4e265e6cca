/// Why a WebAuthn credential, assertion or one of their parts was refused.
/// The message names the check (WebAuthn Level 3 §7) and is safe to show:
/// it never holds a key, a signature or a challenge.
package struct WebAuthnError: Error, Sendable, Hashable, CustomStringConvertible {
    package let description: String

    init(_ description: String) { self.description = description }

    /// Part of the response is not in the shape WebAuthn defines.
    static func malformed(_ what: String) -> WebAuthnError { WebAuthnError("Malformed \(what).") }
    /// A well-formed response that fails a check; `check` says which.
    static func failed(_ check: String) -> WebAuthnError { WebAuthnError(check) }
    /// A CBOR part that did not decode.
    static func cbor(_ part: String, _ error: CBORError) -> WebAuthnError {
        WebAuthnError("Malformed \(part): \(error.description)")
    }
}
