import Foundation

/// The access token in memory and what it takes to judge it, readable
/// without entering the ``SessionClient`` actor.
///
/// `accessToken()` is called before nearly every request an app makes, and
/// with a valid token it only reads. An actor call costs an executor hop
/// (about 200 ns); a lock costs about 20. The actor stays the only writer:
/// every change to its session or clock offset republishes the snapshot, and
/// anything the snapshot cannot answer (no session, an expired token) goes
/// through the actor as before (docs/PROTOCOL.md, "Reading the token").
final class TokenSnapshot: @unchecked Sendable {
    struct Value: Sendable, Equatable {
        let accessToken: String
        let expiresAt: Date
        let leeway: TimeInterval
        /// Server time minus local time, as the actor's ``ServerClockOffset`` holds it.
        let offsetSeconds: TimeInterval
        /// The engine's `offline` flag: `send` beside the actor is for a client
        /// the auth server last answered (docs/PROTOCOL.md, "Requests beside the actor").
        let offline: Bool

        init(accessToken: String, expiresAt: Date, leeway: TimeInterval, offsetSeconds: TimeInterval, offline: Bool = false) {
            self.accessToken = accessToken
            self.expiresAt = expiresAt
            self.leeway = leeway
            self.offsetSeconds = offsetSeconds
            self.offline = offline
        }

        /// The same test as ``RefreshStateMachine/isExpired(_:now:)``, in the same
        /// arithmetic order, so the two never disagree at the boundary.
        func isExpired(now: Date) -> Bool {
            now.addingTimeInterval(offsetSeconds).addingTimeInterval(leeway) >= expiresAt
        }
    }

    // Guarded by `lock`; `@unchecked Sendable` rests on that.
    private let lock = NSLock()
    private var value: Value?

    /// The token, if one is held and not expired at `now`.
    func validToken(now: Date) -> String? {
        lock.lock()
        let value = self.value
        lock.unlock()
        guard let value, !value.isExpired(now: now) else { return nil }
        return value.accessToken
    }

    /// The token `send` may attach without the actor: as ``validToken(now:)``,
    /// and nil while the engine is offline, so that state's requests go the way they always went.
    func tokenBesideTheActor(now: Date) -> String? {
        lock.lock()
        let value = self.value
        lock.unlock()
        guard let value, !value.offline, !value.isExpired(now: now) else { return nil }
        return value.accessToken
    }

    func publish(_ newValue: Value?) {
        lock.lock()
        value = newValue
        lock.unlock()
    }
}
