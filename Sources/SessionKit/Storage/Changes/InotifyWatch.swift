#if canImport(Glibc) || canImport(Musl)
#if canImport(Glibc)
@preconcurrency import Glibc
#else
@preconcurrency import Musl
#endif
import Foundation

/// The Linux watch: inotify on the record's folder (man 7 inotify).
///
/// The folder, not the file: a save renames a new file over the record
/// (`IN_MOVED_TO`), a sign-out deletes it (`IN_DELETE`), a corrupt record is
/// moved aside (`IN_MOVED_FROM`); a watch on the file itself would follow the
/// replaced inode instead. Events for other names (the lock file, temporary
/// files) are ignored. A folder that does not exist yet, or is removed, is
/// looked for again at each interval; so is a watch that fails, by falling
/// back to comparing the record's identity.
struct InotifyWatch {
    let file: URL
    let interval: TimeInterval
    let run: WatchRun

    private static let recordEvents = UInt32(IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | IN_CLOSE_WRITE)
    private static let folderGone = UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Calls `changed` for every event on the record, and for a difference from `first` found while nothing was watched.
    func loop(since first: FileIdentity?, _ changed: () -> Void) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            // No inotify (a sandbox, the instance limit): the portable watch still hears every write.
            FileIdentityPoll(file: file, interval: interval, run: run).loop(since: first, changed)
            return
        }
        defer { close(fd) }
        let folder = file.deletingLastPathComponent().path
        let name = file.lastPathComponent
        var watch: Int32 = -1
        var last = first
        let timeout = Int32(max(1, interval * 1000))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !run.isStopped {
            if watch < 0 {
                watch = inotify_add_watch(fd, folder, Self.recordEvents | UInt32(IN_DELETE_SELF | IN_MOVE_SELF))
                // Whatever happened while nothing was watched: compare once.
                let now = FileIdentity(path: file.path)
                if now != last { changed() }
                last = now
            }
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, timeout) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            let (touched, gone) = Self.parse(buffer, count: count, name: name)
            if gone { watch = -1 }
            if touched || gone {
                last = FileIdentity(path: file.path)
                changed()
            }
        }
    }

    /// Whether the events in `buffer` touch the record named `name`, and whether the folder's watch ended.
    static func parse(_ buffer: [UInt8], count: Int, name: String) -> (touched: Bool, gone: Bool) {
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        var touched = false
        var gone = false
        while offset + header <= count {
            let (mask, length) = buffer.withUnsafeBytes { raw -> (UInt32, Int) in
                let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                return (event.mask, Int(event.len))
            }
            let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
            if mask & folderGone != 0 { gone = true }
            if mask & recordEvents != 0, String(decoding: nameBytes, as: UTF8.self) == name { touched = true }
            offset += header + length
        }
        return (touched, gone)
    }
}
#endif
