#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// A session record in one JSON file, written so a crash can never leave half of it.
///
/// `save` writes a temporary file (mode 0600), fsyncs it, renames it over
/// `session.json`, fsyncs the directory, then reads the file back and checks
/// it is byte-for-byte what was written; it tries up to 3 times. A record that
/// cannot be decoded is moved aside (`session.json.corrupt-<id>`) and
/// reported as ``SessionStoreError/corrupt(detail:movedTo:)``, never treated as
/// "signed out" in silence. `session.lock` beside it serialises refreshes
/// across processes.
public final class FileSessionStore: SessionStore {
    /// The folder holding `session.json` and `session.lock`.
    public let directory: URL
    /// How many times `save` tries before it reports failure.
    public let maximumWriteAttempts: Int

    /// The record's path.
    public var fileURL: URL { directory.appendingPathComponent("session.json") }
    /// The cross-process refresh lock's path.
    public var lockURL: URL { directory.appendingPathComponent("session.lock") }

    /// A test seam: called before each write attempt (1-based); throwing fails that attempt.
    let beforeWrite: (@Sendable (Int) throws(SessionStoreError) -> Void)?

    /// Creates a store in `directory` (created with mode 0700 on first save if missing).
    public convenience init(directory: URL, maximumWriteAttempts: Int = 3) {
        self.init(directory: directory, maximumWriteAttempts: maximumWriteAttempts, beforeWrite: nil)
    }

    init(
        directory: URL, maximumWriteAttempts: Int,
        beforeWrite: (@Sendable (Int) throws(SessionStoreError) -> Void)?
    ) {
        self.directory = directory
        self.maximumWriteAttempts = max(1, maximumWriteAttempts)
        self.beforeWrite = beforeWrite
    }

    public func load() async throws(SessionStoreError) -> StoredSession? {
        let path = fileURL.path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            // Deleted between the check and the read (another process signed out): nothing stored.
            if !FileManager.default.fileExists(atPath: path) { return nil }
            throw .readFailed(String(describing: error))
        }
        // The version first: a newer app's record may not decode as ours, and is left alone, never moved aside.
        if let version = StoredSession.formatVersion(of: data), version > StoredSession.currentVersion {
            throw .unsupportedVersion(version)
        }
        let record: StoredSession
        do {
            record = try WireCoding.decoder().decode(StoredSession.self, from: data)
        } catch {
            throw .corrupt(detail: Self.describe(error), movedTo: .file(try moveAside()))
        }
        // No token at all is a record without a session (an OAuth sign-in in
        // progress, or a sign-out's sequence); one token alone is damage.
        let noSession = record.accessToken.isEmpty && record.refreshToken.isEmpty
        if !noSession, record.refreshToken.isEmpty || record.accessToken.isEmpty {
            throw .corrupt(detail: "a token is empty", movedTo: .file(try moveAside()))
        }
        return record
    }

    public func save(_ session: StoredSession) async throws(SessionStoreError) {
        let data: Data
        do {
            data = try WireCoding.encoder().encode(session)
        } catch {
            throw .writeFailed("encoding: \(error)")
        }
        var lastError = SessionStoreError.writeFailed("not attempted")
        for attempt in 1...maximumWriteAttempts {
            do {
                try beforeWrite?(attempt)
                try writeOnce(data)
                removeAbandonedTemporaryFiles()
                return
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    public func clear() async throws(SessionStoreError) {
        if unlink(fileURL.path) != 0, errno != ENOENT {
            throw .deleteFailed(POSIX.lastError())
        }
        syncDirectory()
    }

    public func lockForRefresh() async throws(SessionStoreError) -> any SessionStoreLock {
        try createDirectory()
        return try await FileLock.acquire(path: lockURL.path)
    }

    public func lockForRefresh(waitingAtMost seconds: TimeInterval) async throws(SessionStoreError) -> any SessionStoreLock {
        try createDirectory()
        return try await FileLock.acquire(path: lockURL.path, timeout: seconds)
    }

    // MARK: - Steps

    private func writeOnce(_ data: Data) throws(SessionStoreError) {
        try createDirectory()
        let temporary = directory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString + Self.temporarySuffix).path
        do throws(POSIXFailure) {
            let fd = try POSIX.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            // Held until after the rename: a temporary file nobody holds was
            // abandoned by a writer that died (see removeAbandonedTemporaryFiles).
            _ = flock(fd, LOCK_EX)
            do throws(POSIXFailure) {
                // The umask may not widen a mode, but make 0600 explicit anyway.
                _ = fchmod(fd, 0o600)
                try POSIX.writeAll(fd, data)
                try POSIX.fsync(fd, "session file")
                if rename(temporary, fileURL.path) != 0 {
                    throw POSIXFailure("rename: \(POSIX.lastError())")
                }
            } catch {
                POSIX.close(fd)
                throw error
            }
            POSIX.close(fd)
        } catch {
            _ = unlink(temporary)
            throw .writeFailed(error.detail)
        }
        syncDirectory()
        // Read back and compare: a save is reported only once it is really there.
        let readBack: Data
        do {
            readBack = try Data(contentsOf: fileURL)
        } catch {
            throw .writeFailed("read back: \(error)")
        }
        guard readBack == data else { throw .verificationFailed }
        do {
            _ = try WireCoding.decoder().decode(StoredSession.self, from: readBack)
        } catch {
            throw .verificationFailed
        }
    }

    /// Makes the rename durable. Best effort: some file systems refuse
    /// `fsync` on a directory, and the file itself is already synced.
    private func syncDirectory() {
        do {
            let fd = try POSIX.open(directory.path, O_RDONLY | O_CLOEXEC)
            _ = POSIX.flushToDisk(fd)
            POSIX.close(fd)
        } catch {
            // The directory may be gone after `clear`; nothing to make durable then.
        }
    }

    private func createDirectory() throws(SessionStoreError) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .writeFailed("creating \(directory.path): \(error)")
        }
    }

    /// Moves an unreadable record aside so it is kept for inspection and the next load starts clean.
    private func moveAside() throws(SessionStoreError) -> URL {
        let destination = directory.appendingPathComponent("session.json.corrupt-\(UUID().uuidString)")
        if rename(fileURL.path, destination.path) != 0 {
            throw .readFailed("the stored session is corrupt and could not be moved aside: \(POSIX.lastError())")
        }
        return destination
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context): context.debugDescription
        default: "not a session record"
        }
    }
}
