#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension FileSessionStore {
    static let temporaryPrefix = ".session.json."
    static let temporarySuffix = ".tmp"

    /// Deletes temporary files left by writers that died mid-save (a crash,
    /// kill -9): each holds a copy of the tokens and would otherwise stay on
    /// disk forever. A writer holds an exclusive `flock` on its temporary
    /// file until the rename, so a file whose lock can be taken is abandoned.
    /// Best effort: a file that cannot be opened or locked is left alone.
    func removeAbandonedTemporaryFiles() {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            return
        }
        for name in names where name.hasPrefix(Self.temporaryPrefix) && name.hasSuffix(Self.temporarySuffix) {
            let path = directory.appendingPathComponent(name).path
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 {
                // Nobody is writing it. Unlinking while holding the lock is safe:
                // a writer that opened it meanwhile fails its rename and retries.
                _ = unlink(path)
            }
            close(fd)
        }
    }
}
