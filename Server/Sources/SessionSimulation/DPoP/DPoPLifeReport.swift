/// What a DPoP life did (issue 43, item 11; docs/RELIABILITY.md, "DPoP lives").
public struct DPoPLifeReport: Sendable {
    /// The server held the session bound to the device's key at the end (`sessions.dpop_jkt`).
    public var bound = false
    /// Proofs the server refused for their `iat` (the answer said so), of every kind.
    public var iatRefusals = 0
    /// Of them, proofs sent by a process that knew the server's clock (an
    /// answer with `Date` since the last clock change, or a record a knowing
    /// process wrote): refused for the client's own clock.
    public var iatRefusalsWhileKnown = 0
    /// The device event of row 9 played its DPoP scene: a backup restored on a device without the key.
    public var restoredOnAnotherDevice = false

    public var violations: [String] {
        guard iatRefusalsWhileKnown > 0 else { return [] }
        return ["\(iatRefusalsWhileKnown) DPoP proof(s) refused for their iat although the server's clock was known"]
    }
}
