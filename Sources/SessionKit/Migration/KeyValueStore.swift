import Foundation

/// Where an app kept its own session before SessionKit: `UserDefaults`
/// (``UserDefaultsStore``), or anything a test scripts.
public protocol KeyValueStore: Sendable {
    /// The value at `key` as bytes: data as stored, a string as UTF-8, a
    /// property-list dictionary as JSON; `nil` when there is none.
    func data(forKey key: String) -> Data?

    /// Removes the value at `key`.
    func removeValue(forKey key: String)
}
