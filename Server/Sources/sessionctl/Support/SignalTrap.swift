import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT and SIGTERM into an async wait, so `watch` can shut the
/// client down cleanly (save, wait for a refresh) instead of dying mid-write.
final class SignalTrap: @unchecked Sendable {
    // Unchecked: `sources` is written only in `init` and then only kept alive.
    private var sources: [any DispatchSourceSignal] = []
    private let stream: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation

    init(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        self.continuation = continuation
        for number in signals {
            // The default action would kill the process before the source sees the signal.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Ends the wait in ``next()`` without a signal.
    func stop() { continuation.finish() }

    /// Returns the first signal received (or `nil` if the wait is cancelled).
    func next() async -> Int32? {
        for await number in stream { return number }
        return nil
    }
}
