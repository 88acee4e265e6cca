import Foundation

/// Passkeys (`--passkeys`; GoTrue's `PASSKEY_ENABLED` and `WEBAUTHN_RP_*`):
/// the relying party a credential is bound to, and the bounds on its use
/// (docs/PASSKEYS.md).
public struct PasskeyConfiguration: Sendable, Hashable {
    /// The RP ID: a registrable domain the origins share, e.g. `example.com`.
    /// A passkey works only where this is its RP ID; changing it orphans every passkey.
    public var rpID: String
    /// The name authenticators show beside the account ("Example").
    public var rpDisplayName: String
    /// Origins ceremonies may run at: `https://example.com`, `https://app.example.com`.
    /// An iOS app using the associated domain of the RP ID presents `https://<rp id>`.
    public var origins: [String]
    /// Passkeys one account may hold (GoTrue's 10).
    public var maximumPerUser = 10
    /// How long a ceremony's challenge works, in seconds (GoTrue's 5 minutes).
    public var challengeLifetime: TimeInterval = 300
    /// `POST /passkeys/authentication/options` per client IP per minute (GoTrue's 30):
    /// each writes a challenge row, so a flood is bounded.
    public var authenticationOptionsPerMinutePerIP = 30

    public init(rpID: String, rpDisplayName: String, origins: [String]) {
        self.rpID = rpID
        self.rpDisplayName = rpDisplayName
        self.origins = origins
    }
}
