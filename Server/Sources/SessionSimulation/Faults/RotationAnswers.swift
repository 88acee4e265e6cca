import Crypto
import Foundation

/// Which refresh answers one device lost, so a logout on a server without
/// successor recovery can be traced to its cause (docs/RELIABILITY.md,
/// "Without successor recovery").
///
/// Such a server treats a lost rotation answer as theft: the client holds
/// only the rotated-out token, presents it after the grace, and the family is
/// revoked. That logout is the server's choice, not the client's defect, but
/// only if the answer really was lost. So the device writes down, by SHA-256
/// (the form the server stores), every refresh token whose answer did not
/// reach the client whole (a fault that lets the server commit, a timeout, a
/// kill) and every received token whose save died with its process; a clean
/// 200 for a token takes it off the list again. A client that re-presents a
/// token whose successor it had received and saved is not covered by either:
/// a saved successor outweighs a lost answer, because a client that rereads
/// the store under its lock can never present a token once its successor is
/// on disk. (Without that rule, a loaded machine's timeouts marked enough
/// answers lost to excuse the `skip-lock-and-reread` defect in CI.)
final class RotationAnswers: @unchecked Sendable {
    // `@unchecked`: every property is only touched under `lock`.
    private let lock = NSLock()
    private var lostFor: Set<String> = []
    private var unsaved: Set<String> = []
    private var saved: Set<String> = []
    private var reused: [String] = []

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The answer to a refresh presenting `token` may have been committed and never arrived whole.
    func lost(presenting token: String) { lock.withLock { _ = lostFor.insert(Self.hash(token)) } }

    /// A clean 200 for `token` reached the client: it holds the successor now.
    func delivered(presenting token: String) { lock.withLock { _ = lostFor.remove(Self.hash(token)) } }

    /// `token` was received but its save died with the process.
    func unsavedSave(of token: String) { lock.withLock { _ = unsaved.insert(Self.hash(token)) } }

    /// `token` is on disk: every process that rereads the store holds it now.
    func savedSave(of token: String) { lock.withLock { _ = saved.insert(Self.hash(token)) } }

    /// The server answered `refresh_token_already_used` to a refresh presenting `token`.
    func reuseAnswered(presenting token: String) { lock.withLock { reused.append(Self.hash(token)) } }

    /// Whether one of the tokens the server called reused is explained by a
    /// lost answer: it was rotated (`successorOf`, from the server's rows,
    /// names its successor), its own answer was lost or its successor was
    /// received and never saved, and that successor never reached the store.
    func explainsReuse(successorOf: (String) -> String?) -> Bool {
        let snapshot: (lost: Set<String>, unsaved: Set<String>, saved: Set<String>, reused: [String]) =
            lock.withLock { (lostFor, unsaved, saved, reused) }
        return snapshot.reused.contains { hash in
            // A token never rotated cannot have been reused: the server calls it
            // used only because the family was already revoked, by another
            // presentation (whose own answer a fault may have hidden). Its
            // lost answers explain nothing.
            guard let successor = successorOf(hash) else { return false }
            if snapshot.saved.contains(successor) { return false }
            return snapshot.lost.contains(hash) || snapshot.unsaved.contains(successor)
        }
    }

    /// Whether the server answered `refresh_token_already_used` on this device at all.
    var sawReuse: Bool { lock.withLock { !reused.isEmpty } }
}
