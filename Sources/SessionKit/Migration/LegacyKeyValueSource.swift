import Foundation

/// Where an app kept its own session before SessionKit: `UserDefaults`
/// (``UserDefaultsLegacySource``), or anything a test scripts.
public protocol LegacyKeyValueSource: Sendable {
    /// The value at `key` as bytes: data as stored, a string as UTF-8, a
    /// property-list dictionary as a property list (JSON also reads);
    /// `nil` only when there is none. A value that is there but cannot be
    /// turned into bytes must still return bytes (empty, say), so the
    /// migration keeps it as `unrecognised` rather than finding nothing.
    func data(forKey key: String) -> Data?

    /// Removes the value at `key`.
    func removeValue(forKey key: String)

    /// The value at `key`, or why it cannot be read now (a locked device's
    /// Keychain): the migration then postpones, keeping the value, rather
    /// than take "unreadable" for "nothing to migrate" and sign the person out.
    ///
    /// The default answers ``data(forKey:)``, which never fails.
    func readValue(forKey key: String) async throws(SessionError) -> Data?
}

extension LegacyKeyValueSource {
    public func readValue(forKey key: String) async throws(SessionError) -> Data? {
        data(forKey: key)
    }
}
