/// Protected data that is always readable: macOS, watchOS and Linux, where
/// UIKit's protected-data state cannot be read. Not for iOS app extensions,
/// which can run before the first unlock: use ``KeychainProbeProtectedData``.
public struct AlwaysAvailableProtectedData: ProtectedDataAvailability {
    public init() {}

    public var isAvailable: Bool { true }

    public func waitUntilAvailable(timeout: Duration) async -> Bool { true }
}
