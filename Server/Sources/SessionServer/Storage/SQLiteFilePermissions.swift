import Foundation
import Logging

/// The SQLite file holds password hashes and the sealed signing keys: only
/// its owner may read it.
///
/// A missing folder is created 0700 and a missing file 0600; SQLite gives its
/// `-wal` and `-shm` companions the database file's mode. An existing file
/// readable by others is left as the operator made it, with a warning naming
/// it (an existing folder is the operator's: it may hold other things).
enum SQLiteFilePermissions {
    static func prepare(path: String, logger: Logger) throws {
        let files = FileManager.default
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !files.fileExists(atPath: folder) {
            try files.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        if !files.fileExists(atPath: path) {
            guard files.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw ConfigurationError("The SQLite database \(path) cannot be created.")
            }
        }
        for candidate in [path, path + "-wal", path + "-shm"] {
            guard let mode = permissions(of: candidate), mode & 0o077 != 0 else { continue }
            logger.warning(
                "The SQLite database is readable by other users: make it owner-only (chmod 600)",
                metadata: ["path": "\(candidate)", "mode": "\(String(mode, radix: 8))"])
        }
    }

    /// The permission bits of `path`, or `nil` when it does not exist.
    static func permissions(of path: String) -> Int? {
        do {
            return (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
        } catch {
            return nil
        }
    }
}
