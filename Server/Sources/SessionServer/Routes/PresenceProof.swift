import SessionCore

/// The optional body of a request that needs proof of presence
/// (`current_password` or a mailed `nonce`): `DELETE /v1/auth/me`,
/// `DELETE /v1/sessions/{id}` for another device, `POST /logout?scope=others`.
/// The wire shape is the account deletion's, shared with the client.
typealias PresenceProof = AccountDeletion
