import Foundation
import Logging
import SessionCore

/// Keeping the session's user what the server last said.
extension SessionClient {
    /// Makes `user` the session's user: in memory, in the state (so
    /// `SessionModel.user` follows), in the store, and as a
    /// ``SessionEvent/userUpdated(_:)`` event.
    ///
    /// A user of another id than the session's is ignored (an answer for
    /// someone else never renames the person). Saving is best effort: the
    /// user is a convenience, the tokens are untouched, and a failed save is
    /// logged; the next refresh's save carries the user anyway.
    func replaceUser(with user: SessionUser) async {
        guard var session = current, session.user?.id == nil || session.user?.id == user.id else { return }
        guard session.user != user else { return }
        session.user = user
        current = session
        switch broadcaster.current {
        case .signedIn: broadcaster.set(.signedIn(session))
        case .offline: broadcaster.set(.offline(session))
        case .needsAttention(_, let reason): broadcaster.set(.needsAttention(session, reason: reason))
        default: break
        }
        if var pending = pendingWrite, pending.refreshToken == session.refreshToken {
            // Not saved yet: the retry writes the new user with the tokens.
            pending.user = user
            pendingWrite = pending
        } else {
            await saveUser(of: session)
        }
        broadcaster.publish(.userUpdated(user))
    }

    /// Writes the user into the stored record, if the store still holds this session (rule A).
    private func saveUser(of session: Session) async {
        let update = await updateRecord("saving the user") { stored in
            guard var record = stored, record.refreshToken == session.refreshToken else { return nil }
            record.user = session.user
            return record
        }
        switch update {
        case .unreadable(let failure), .unwritable(let failure):
            logger.notice("The updated user could not be saved; it is kept in memory", metadata: ["reason": "\(failure)"])
        case .saved, .unchanged:
            break
        }
    }
}
