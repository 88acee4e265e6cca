import Foundation
import SessionCore
import SessionKit

/// One timestamped line per state change or event, for `watch`.
struct WatchPrinter: Sendable {
    let output: Output
    /// Stamps each line; the same clock the client decides expiry with.
    var clock: any SessionClock = SystemClock()

    func print(_ state: SessionState) {
        let (name, text, fields): (String, String, [String: JSONValue])
        switch state {
        case .signedOut: (name, text, fields) = ("signedOut", "signed out", [:])
        case .restoring: (name, text, fields) = ("restoring", "restoring the saved session", [:])
        case .signedIn(let session):
            (name, text, fields) = ("signedIn", "signed in as \(Self.who(session)), token valid until \(Self.time(session))", Self.fields(session))
        case .offline(let session):
            (name, text, fields) = ("offline", "offline: server unreachable; still signed in as \(Self.who(session)), will retry", Self.fields(session))
        case .expired(let reason):
            (name, text, fields) = ("expired", "expired: \(reason)", ["message": .string(reason)])
        case .locked(let reason):
            (name, text, fields) = ("locked", "locked (\(reason)): still signed in; unlock to continue", ["message": .string(reason.description)])
        case .needsAttention(let session, let reason):
            (name, text, fields) = (
                "needsAttention",
                "can't reach your account right now (\(reason.underlying ?? reason.message)); still signed in as \(Self.who(session)), will retry",
                Self.fields(session).merging(["message": .string(reason.message)]) { _, new in new })
        }
        line(kind: "state", name: name, text: text, fields: fields)
    }

    func print(_ event: SessionEvent) {
        let (name, text, fields): (String, String, [String: JSONValue])
        switch event {
        case .signedIn(let session): (name, text, fields) = ("signedIn", "signed in", Self.fields(session))
        case .tokenRefreshed(let session):
            (name, text, fields) = ("tokenRefreshed", "token refreshed, valid until \(Self.time(session))", Self.fields(session))
        case .refreshFailed(let error, let willRetry):
            (name, text, fields) = (
                "refreshFailed", "refresh failed: \(error.message)\(willRetry ? " (will retry)" : "")",
                ["message": .string(error.message), "will_retry": .bool(willRetry)]
            )
        case .sessionExpired(let message):
            (name, text, fields) = ("sessionExpired", "session expired: \(message)", ["message": .string(message)])
        case .signedOut: (name, text, fields) = ("signedOut", "signed out", [:])
        case .persistenceFailed(let error):
            (name, text, fields) = ("persistenceFailed", "could not save the session: \(error.message)", ["message": .string(error.message)])
        case .offline: (name, text, fields) = ("offline", "offline: server unreachable, still signed in", [:])
        case .online: (name, text, fields) = ("online", "back online", [:])
        case .initialSession:
            // The state line printed first already says where the person stands.
            return
        case .adoptedStoredSession(let session):
            (name, text, fields) = ("adoptedStoredSession", "adopted the session another process refreshed", Self.fields(session))
        case .userUpdated(let user):
            (name, text, fields) = ("userUpdated", "the user was updated", ["user_id": .string(user.id)])
        }
        line(kind: "event", name: name, text: text, fields: fields)
    }

    private func line(kind: String, name: String, text: String, fields: [String: JSONValue]) {
        let now = clock.now
        var object = fields
        object["time"] = Output.date(now)
        object["type"] = .string(kind)
        object["name"] = .string(name)
        output.emit("\(WireCoding.formatDate(now))  \(kind.padding(toLength: 5, withPad: " ", startingAt: 0))  \(text)", json: object)
    }

    private static func who(_ session: Session) -> String { session.user?.email ?? session.user?.id ?? "unknown user" }
    private static func time(_ session: Session) -> String { WireCoding.formatDate(session.expiresAt) }
    private static func fields(_ session: Session) -> [String: JSONValue] {
        ["expires_at": Output.date(session.expiresAt), "email": session.user?.email.map(JSONValue.string) ?? .null]
    }
}
