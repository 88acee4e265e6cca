import Foundation
import SessionCore
import SessionKit

/// The JSON every command that reports a session prints.
enum SignedInSummary {
    static func json(_ session: Session, context: CLIContext, state: String = "signedIn") -> [String: JSONValue] {
        [
            "state": .string(state),
            "email": session.user?.email.map(JSONValue.string) ?? .null,
            "user_id": session.user.map { .string($0.id) } ?? .null,
            "session_id": session.sessionID.map(JSONValue.string) ?? .null,
            "expires_at": Output.date(session.expiresAt),
            "server": .string(context.server.absoluteString),
            "profile": .string(context.profile),
        ]
    }
}
