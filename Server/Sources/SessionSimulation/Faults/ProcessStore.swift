import Foundation
import SessionKit

/// The store as one simulated process sees it: the shared `FileSessionStore`
/// directory, cut off once the process is dead, and able to die in the middle
/// of a write (before the atomic rename, so the old record stays on disk).
public struct ProcessStore: SessionStore {
    let base: FileSessionStore
    let process: SimulatedProcess
    let dropsWrites: Bool
    /// The device: where a save that dies is written down (see `RotationAnswers`), the trace, the clock's knowledge.
    let network: DeviceNetwork?
    /// Asked before each save: true refuses it as a full disk would (anonymous lives, ``AnonymousPerson``).
    let refusesWrite: (@Sendable () -> Bool)?

    public init(directory: URL, process: SimulatedProcess, dropsWrites: Bool = false) {
        self.init(directory: directory, process: process, dropsWrites: dropsWrites, network: nil)
    }

    init(
        directory: URL, process: SimulatedProcess, dropsWrites: Bool, network: DeviceNetwork?,
        refusesWrite: (@Sendable () -> Bool)? = nil
    ) {
        self.base = FileSessionStore(directory: directory)
        self.process = process
        self.dropsWrites = dropsWrites
        self.network = network
        self.refusesWrite = refusesWrite
    }

    public func load() async throws(SessionStoreError) -> StoredSession? {
        if process.isDead { throw .readFailed("the process was killed") }
        return try await base.load()
    }

    public func save(_ session: StoredSession) async throws(SessionStoreError) {
        if process.takeSaveKill() {
            network?.trace.note("\(process.label) killed mid-write saving refresh \(LifeTrace.short(session.refreshToken))")
            network?.answers.unsavedSave(of: session.refreshToken)
            throw .writeFailed("the process was killed before the rename")
        }
        if process.isDead {
            network?.answers.unsavedSave(of: session.refreshToken)
            throw .writeFailed("the process was killed")
        }
        if let refusesWrite, refusesWrite() {
            network?.trace.note("\(process.label): the store refused to save refresh \(LifeTrace.short(session.refreshToken)) (disk full)")
            network?.answers.unsavedSave(of: session.refreshToken)
            throw .writeFailed("no space left on the device")
        }
        if dropsWrites { return }
        try await base.save(session)
        network?.answers.savedSave(of: session.refreshToken)
        network?.saved(by: process)
        network?.trace.note("\(process.label) saved refresh \(LifeTrace.short(session.refreshToken))")
    }

    public func clear() async throws(SessionStoreError) {
        if process.isDead { throw .deleteFailed("the process was killed") }
        try await base.clear()
    }

    public func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        if process.isDead { throw .lockFailed("the process was killed") }
        return try await base.lockForRefresh()
    }

    public func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
        if process.isDead { throw .lockFailed("the process was killed") }
        return try await base.lockForRefresh(waitingAtMost: seconds)
    }
}
