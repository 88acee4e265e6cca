/// A test harness that could not set itself up (the child processes' own
/// failures are `ChildProcessError`s from ProcessTesting).
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
