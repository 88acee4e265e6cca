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

/// Thin wrappers over the few POSIX calls the file store needs, so the
/// store itself reads as a sequence of steps.
enum POSIX {
    /// The text of the current `errno`.
    static func lastError() -> String {
        let code = errno
        return "\(String(cString: strerror(code))) (errno \(code))"
    }

    /// Opens `path`, retrying on `EINTR`. Returns the descriptor or throws the errno text.
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) throws(POSIXFailure) -> Int32 {
        while true {
            #if canImport(Darwin)
            let fd = Darwin.open(path, flags, mode)
            #elseif canImport(Glibc)
            let fd = Glibc.open(path, flags, mode)
            #else
            let fd = Musl.open(path, flags, mode)
            #endif
            if fd >= 0 { return fd }
            if errno != EINTR { throw POSIXFailure("open \(path): \(lastError())") }
        }
    }

    /// Writes all of `data` to `fd`.
    static func writeAll(_ fd: Int32, _ data: Data) throws(POSIXFailure) {
        let failure: String? = data.withUnsafeBytes { buffer -> String? in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Darwin)
                let written = Darwin.write(fd, buffer.baseAddress!.advanced(by: offset), buffer.count - offset)
                #elseif canImport(Glibc)
                let written = Glibc.write(fd, buffer.baseAddress!.advanced(by: offset), buffer.count - offset)
                #else
                let written = Musl.write(fd, buffer.baseAddress!.advanced(by: offset), buffer.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return "write: \(lastError())"
                }
                offset += written
            }
            return nil
        }
        if let failure { throw POSIXFailure(failure) }
    }

    /// Flushes `fd` to stable storage.
    static func fsync(_ fd: Int32, _ what: String) throws(POSIXFailure) {
        if flushToDisk(fd) != 0 { throw POSIXFailure("fsync \(what): \(lastError())") }
    }

    /// `fsync(2)`, and on Darwin `F_FULLFSYNC` first. Returns 0, or -1 with `errno` set.
    static func flushToDisk(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
        // Darwin's fsync stops at the drive's write cache, which a power cut loses;
        // F_FULLFSYNC asks the drive to write that out too.
        if fcntl(fd, F_FULLFSYNC) != -1 { return 0 }
        // Some file systems (network, FAT) refuse it: fsync is then the best there is.
        return Darwin.fsync(fd)
        #elseif canImport(Glibc)
        return Glibc.fsync(fd)
        #else
        return Musl.fsync(fd)
        #endif
    }

    static func close(_ fd: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(fd)
        #elseif canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Musl.close(fd)
        #endif
    }
}

/// A failed POSIX call, described.
struct POSIXFailure: Error {
    let detail: String
    init(_ detail: String) { self.detail = detail }
}
