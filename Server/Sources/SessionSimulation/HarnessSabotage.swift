import SessionKit

/// A defect the harness plants to prove that its invariants catch it: one in
/// the client's surroundings (the store), or one of the client's own
/// (``Sabotage``, compiled in only with the `Sabotage` package trait).
public enum HarnessSabotage: Sendable, Hashable, CustomStringConvertible {
    /// The store acknowledges writes but keeps nothing (a broken keychain wrapper, say).
    case storeDropsWrites
    /// The app update of issue 31's row 6 does not tell the store where the
    /// earlier version kept the item (its earlier service): every person who updates is signed out.
    case updateForgetsEarlierItem
    /// The device marker of issue 31's row 9 moves with a backup (written
    /// with a class that is not `ThisDeviceOnly`): a restored device takes the
    /// copied record for its own and presents its refresh token.
    case deviceMarkerMoves
    /// A passkey sign-in's hand-off to the client keeps the access token but
    /// not the refresh token (a broken ceremony glue): the first refresh fails
    /// and the person is signed out (issue 39, item 11).
    case passkeyHandOffLosesRefreshToken
    /// The server forgets a session's `aal2` (its factor deleted behind the
    /// app's back), so the next refresh answers `aal1`: caught only in lives
    /// with a second factor (`secondFactorShare`), so not in ``all``.
    case sessionLevelDropped
    /// An anonymous session is signed out on a transient failure, the SDK's
    /// guard passed by (an app whose error handler signs out, acknowledging
    /// without asking): the account is gone for good while the server still
    /// holds it (issue 40, item 6). Every life is anonymous under it; not in ``all``.
    case anonymousSignedOutOnTransient
    /// A planted client defect.
    case client(Sabotage)

    /// Every sabotage, in the order `--list-sabotages` prints them.
    public static let all: [HarnessSabotage] = [.storeDropsWrites, .updateForgetsEarlierItem, .deviceMarkerMoves, .passkeyHandOffLosesRefreshToken] + Sabotage.all.map { .client($0) }

    /// Sabotages caught only by lives of their own kind, left out of ``all``
    /// (the matrix's CI run) so it costs no more: their suites plant them.
    public static let needingTheirLives: [HarnessSabotage] = [.sessionLevelDropped, .anonymousSignedOutOnTransient]

    /// The sabotage called `name`, if any.
    public init?(name: String) {
        guard let found = (Self.all + Self.needingTheirLives).first(where: { $0.name == name }) else { return nil }
        self = found
    }

    public var name: String {
        switch self {
        case .storeDropsWrites: "store-drops-writes"
        case .updateForgetsEarlierItem: "update-forgets-earlier-item"
        case .deviceMarkerMoves: "device-marker-moves"
        case .passkeyHandOffLosesRefreshToken: "passkey-hand-off-loses-refresh-token"
        case .sessionLevelDropped: "session-level-dropped"
        case .anonymousSignedOutOnTransient: "anonymous-signed-out-on-transient"
        case .client(let sabotage): sabotage.name
        }
    }

    public var description: String { name }

    /// The client defect, if this is one.
    var clientDefect: Sabotage? {
        if case .client(let sabotage) = self { sabotage } else { nil }
    }
}
