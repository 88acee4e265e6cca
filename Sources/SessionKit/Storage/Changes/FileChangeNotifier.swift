#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// ``StoreChangeNotifier`` for a ``FileSessionStore``: the write is the signal.
///
/// Every process watches the store's folder for its record being replaced,
/// moved aside or deleted: with inotify on Linux (`IN_MOVED_TO`, `IN_DELETE`,
/// ...; man 7 inotify), elsewhere by comparing the record's identity (inode,
/// size, modification time) four times a second. ``post()`` does nothing: a
/// save renames a new file over the record, which the watch sees.
public struct FileChangeNotifier: StoreChangeNotifier {
    /// The record watched.
    public let fileURL: URL
    /// How often the folder is looked at again when it cannot be watched (real time).
    let pollInterval: TimeInterval

    /// Watches `fileURL` (its folder need not exist yet).
    public init(fileURL: URL) {
        self.init(fileURL: fileURL, pollInterval: 0.25)
    }

    init(fileURL: URL, pollInterval: TimeInterval) {
        self.fileURL = fileURL
        self.pollInterval = pollInterval
    }

    public func post() {}

    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let run = WatchRun()
        continuation.onTermination = { _ in run.stop() }
        let file = fileURL
        let interval = pollInterval
        // Taken now, not when the thread starts: a write in between is a change the watch reports.
        let first = FileIdentity(path: file.path)
        // A thread of its own: the watch blocks in poll(2), which must not hold a thread of the cooperative pool.
        let thread = Thread {
            #if canImport(Glibc) || canImport(Musl)
            InotifyWatch(file: file, interval: interval, run: run).loop(since: first) { continuation.yield() }
            #else
            FileIdentityPoll(file: file, interval: interval, run: run).loop(since: first) { continuation.yield() }
            #endif
        }
        thread.name = "SessionKit store watch"
        thread.start()
        return stream
    }
}

/// One watch's stop flag, set when its stream's consumer goes away.
final class WatchRun: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false

    var isStopped: Bool { lock.withLock { stopped } }

    func stop() {
        lock.withLock { stopped = true }
    }
}

/// The record's identity as `stat(2)` gives it; `nil` when there is no record.
struct FileIdentity: Equatable {
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
    }
}

/// The portable watch: compares the record's identity at each interval.
struct FileIdentityPoll {
    let file: URL
    let interval: TimeInterval
    let run: WatchRun

    /// Calls `changed` whenever the record's identity differs from the last seen, starting from `first`.
    func loop(since first: FileIdentity?, _ changed: () -> Void) {
        var last = first
        while !run.isStopped {
            Thread.sleep(forTimeInterval: interval)
            let now = FileIdentity(path: file.path)
            if now != last {
                last = now
                changed()
            }
        }
    }
}
