/// Protected data that is always readable: macOS, watchOS, Linux, and app
/// extensions, where UIKit's protected-data state cannot be read.
public struct AlwaysAvailableProtectedData: ProtectedDataAvailability {
    public init() {}

    public var isAvailable: Bool { true }

    public func waitUntilAvailable(timeout: Duration) async -> Bool { true }
}
