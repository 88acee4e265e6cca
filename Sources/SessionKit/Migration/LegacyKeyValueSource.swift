import Foundation

/// Where an app kept its own session before SessionKit: `UserDefaults`
/// (``UserDefaultsLegacySource``), or anything a test scripts.
public protocol LegacyKeyValueSource: Sendable {
    /// The value at `key` as bytes: data as stored, a string as UTF-8, a
    /// property-list dictionary as JSON; `nil` when there is none.
    func data(forKey key: String) -> Data?

    /// Removes the value at `key`.
    func removeValue(forKey key: String)
}
