#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The installation's DPoP key in a file beside the session file (Linux, CLIs):
/// `dpop-key`, mode 0600, in the store's directory, written atomically
/// (a temporary file, fsync, rename, as ``FileSessionStore`` writes).
///
/// The file holds the 32-byte private scalar. Copy the directory elsewhere
/// and the key goes with it: on a server or a laptop that is the owner's
/// choice, and the key is never in the session file itself, so a session
/// file copied alone does not refresh (docs/DPOP.md, "What it protects").
public struct FileDPoPKeyStore: DPoPKeyStore {
    /// The folder the key file lives in (the ``FileSessionStore``'s directory).
    public let directory: URL

    /// The key file.
    public var fileURL: URL { directory.appendingPathComponent("dpop-key") }

    /// - Parameter directory: the folder of the session file (created with mode 0700 if missing).
    public init(directory: URL) {
        self.directory = directory
    }

    public func existingKey() throws(DPoPKeyError) -> (any DPoPSigningKey)? {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            // Not "no such file": a permission or I/O problem this process may get past later.
            throw DPoPKeyError.unavailable.with(detail: "reading \(fileURL.lastPathComponent): \(error.localizedDescription)")
        }
        // A truncated or foreign file holds no key this installation can prove: the key is gone.
        guard data.count == 32 else { return nil }
        do {
            return try SoftwareDPoPKey(rawRepresentation: data)
        } catch {
            return nil
        }
    }

    public func createKey() throws(DPoPKeyError) -> any DPoPSigningKey {
        let key = SoftwareDPoPKey()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let temporary = directory.appendingPathComponent(".dpop-key.\(UUID().uuidString).tmp").path
            let fd = try POSIX.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            do {
                try POSIX.writeAll(fd, key.rawRepresentation)
                try POSIX.fsync(fd, "key file")
                if rename(temporary, fileURL.path) != 0 { throw POSIXFailure("rename: \(POSIX.lastError())") }
            } catch {
                POSIX.close(fd)
                unlink(temporary)
                throw error
            }
            POSIX.close(fd)
        } catch let failure as POSIXFailure {
            throw DPoPKeyError.unavailable.with(detail: "writing the key file: \(failure.detail)")
        } catch {
            throw DPoPKeyError.unavailable.with(detail: "writing the key file: \(error.localizedDescription)")
        }
        return key
    }
}

extension DPoPKeyStore where Self == FileDPoPKeyStore {
    /// A 0600 key file in `directory` (the ``FileSessionStore``'s).
    public static func file(directory: URL) -> FileDPoPKeyStore { FileDPoPKeyStore(directory: directory) }
}
