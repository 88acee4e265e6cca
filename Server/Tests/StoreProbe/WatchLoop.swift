import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionKit

/// `store-probe watch DIR SERVER_URL [deaf]`: a process that restores the session in
/// `DIR` once and then only listens, printing `state <name>` for every state
/// its client publishes, until the test kills it. It makes no call after the
/// restore, so a change it prints came from another process's write, heard
/// through the store's change notifier (docs/PROTOCOL.md, "Hearing other processes").
/// `deaf` hides the notifier: the test's proof that what it measures is the notifier.
extension StoreProbe {
    static func watch(directory: URL, server: URL, deaf: Bool) async {
        var logger = Logger(label: "store-probe")
        logger.logLevel = .warning
        let file = FileSessionStore(directory: directory)
        let store: any SessionStore = deaf ? DeafStore(base: file) : file
        let client = SessionClient(
            configuration: SessionClientConfiguration(
                backend: .goTrue(url: server, apiKey: "anon"), store: store,
                launchValidation: .skip, automaticRefresh: false, logger: logger))
        let states = client.states
        let listening = Task {
            for await state in states { say("state \(name(of: state))") }
        }
        do {
            let state = try await client.restore()
            say("restored \(name(of: state))")
        } catch {
            say("error restore: \(String(describing: error).prefix(200))")
        }
        await listening.value
    }

    private static func name(of state: SessionState) -> String {
        switch state {
        case .signedOut: "signedOut"
        case .restoring: "restoring"
        case .signedIn: "signedIn"
        case .offline: "offline"
        case .expired: "expired"
        case .needsAttention: "needsAttention"
        case .locked: "locked"
        }
    }
}

/// The file store without its change notifier (`watch … deaf`).
private struct DeafStore: SessionStore {
    let base: FileSessionStore

    func load() async throws(SessionStoreError) -> StoredSession? { try await base.load() }
    func save(_ session: StoredSession) async throws(SessionStoreError) { try await base.save(session) }
    func clear() async throws(SessionStoreError) { try await base.clear() }
    func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock { try await base.lockForRefresh() }

    func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
        try await base.lockForRefresh(waitingAtMost: seconds)
    }
}
