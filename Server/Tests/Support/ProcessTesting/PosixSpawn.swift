import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a child with `posix_spawn`, the one way to control its signal state.
///
/// Foundation's `Process` on Linux starts children with SIGTERM blocked, so
/// `terminate()` may not stop them,
/// and a child also inherits the test runner's mask and ignored signals: a
/// graceful-shutdown test would then prove nothing. So the child gets an empty
/// signal mask and the default dispositions of SIGTERM and SIGINT.
///
/// The child also gets no descriptor but its three standard streams. The test
/// runner holds sockets without close-on-exec (NIO's accepted connections among
/// them); a child that inherited one kept that connection open after the test
/// closed it, so the peer never saw the close and waited out its timeout.
enum PosixSpawn {
    static func spawn(
        executable: String, arguments: [String], environment: [String: String]?, workingDirectory: String?,
        standardInput: String, output: ChildProcess.Output
    ) throws -> pid_t {
        var attributes = SpawnAttributes.empty
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        #if canImport(Darwin)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        #endif

        var actions = SpawnFileActions.empty
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let stderrPath = output.stderrPath {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        let closing = closeFrom(&actions, 3)
        guard closing == 0 else { throw ChildProcessError.spawnFailed(executable, errno: closing) }
        // Last, so that the paths above stay relative to the test's own directory.
        if let workingDirectory {
            let status = addChdir(&actions, workingDirectory)
            guard status == 0 else { throw ChildProcessError.spawnFailed(executable, errno: status) }
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The runner's own environment, read through Foundation: `environ` is glibc's spelling,
        // which Darwin's Swift module does not promise (its headers offer `_NSGetEnviron()`).
        let inherited = environment ?? ProcessInfo.processInfo.environment
        let envp: [UnsafeMutablePointer<CChar>?] = inherited.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw ChildProcessError.spawnFailed(executable, errno: status) }
        return child
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), looked up as
    /// `addChdir` is; Darwin uses `POSIX_SPAWN_CLOEXEC_DEFAULT` instead.
    /// Returns an errno value, 0 on success; ENOSYS on an older glibc, where
    /// the process tests refuse to run rather than share the runner's sockets.
    private static func closeFrom(_ actions: inout SpawnFileActions, _ lowest: Int32) -> Int32 {
        #if canImport(Darwin)
        return 0
        #else
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest)
        #endif
    }

    /// `posix_spawn_file_actions_addchdir_np`: Darwin declares it; glibc (2.29+)
    /// only under `_GNU_SOURCE`, which Swift's Glibc module does not define, so
    /// there it is looked up at run time. Returns an errno value, 0 on success.
    private static func addChdir(_ actions: inout SpawnFileActions, _ path: String) -> Int32 {
        #if canImport(Darwin)
        return posix_spawn_file_actions_addchdir_np(&actions, path)
        #else
        typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddChdir.self)(&actions, path)
        #endif
    }
}

// The two spawn handles differ in type. glibc and musl declare
// `posix_spawnattr_t` and `posix_spawn_file_actions_t` as structs, imported as
// Swift structs with a zeroing `init()`. Darwin declares both as `void *`,
// imported as `UnsafeMutableRawPointer`: a variable of the optional type starts
// as `nil`, `posix_spawnattr_init(&attributes)` allocates the real object into
// it, and every other call takes `UnsafeMutablePointer<posix_spawnattr_t?>`.
// These aliases give both one spelling; the Darwin half is not compiled on
// Linux, so it is kept to the shape Darwin's headers import as.
#if canImport(Darwin)
typealias SpawnAttributes = posix_spawnattr_t?
typealias SpawnFileActions = posix_spawn_file_actions_t?

extension Optional where Wrapped == UnsafeMutableRawPointer {
    /// A handle for `posix_spawnattr_init` or `posix_spawn_file_actions_init` to fill in.
    static var empty: Self { nil }
}
#else
typealias SpawnAttributes = posix_spawnattr_t
typealias SpawnFileActions = posix_spawn_file_actions_t

extension posix_spawnattr_t {
    /// Zeroed storage for `posix_spawnattr_init` to initialise.
    static var empty: Self { Self() }
}

extension posix_spawn_file_actions_t {
    /// Zeroed storage for `posix_spawn_file_actions_init` to initialise.
    static var empty: Self { Self() }
}
#endif
