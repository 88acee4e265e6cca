import SessionCore

/// `POST /auth/v1/signup` body, read loosely first: GoTrue decides between a
/// password sign-up and an anonymous one by whether `email` or `phone` is given
/// (`internal/api/api.go`, the `/signup` route).
struct SignUpRequest: Sendable, Decodable {
    var email: String?
    var phone: String?
    var password: String?
    var data: [String: JSONValue]?

    /// Neither email nor phone (empty counts as absent, as GoTrue's `== ""`).
    var isAnonymous: Bool { (email ?? "").isEmpty && (phone ?? "").isEmpty }

    /// The password sign-up's credentials, refused as a strict decode would
    /// refuse them (`email is required.`), so that path answers as before.
    func passwordCredentials() throws -> PasswordCredentials {
        guard let email else { throw AuthError.invalidRequest(field: "email", "email is required.") }
        guard let password else { throw AuthError.invalidRequest(field: "password", "password is required.") }
        return PasswordCredentials(email: email, password: password, data: data)
    }
}
