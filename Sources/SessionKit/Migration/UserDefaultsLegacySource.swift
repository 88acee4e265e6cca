import Foundation

/// `UserDefaults`, standard or a suite (an app group's, say), as a ``LegacyKeyValueSource``.
///
/// It keeps the suite's name, not a `UserDefaults` instance, so it is plainly
/// `Sendable`; `UserDefaults` is thread-safe and cheap to look up by name.
public struct UserDefaultsLegacySource: LegacyKeyValueSource {
    /// The suite, or `nil` for `UserDefaults.standard`.
    public let suiteName: String?

    /// - Parameter suiteName: a suite (`"group.com.example"` for an app group), or `nil` for the standard defaults.
    public init(suiteName: String? = nil) {
        self.suiteName = suiteName
    }

    private var defaults: UserDefaults? {
        guard let suiteName else { return .standard }
        return UserDefaults(suiteName: suiteName)
    }

    /// The value at `key`: data as stored, a string as UTF-8, anything else
    /// (a dictionary saved with `set(_:forKey:)`, its dates and numbers
    /// included) as a binary property list, which ``LegacySession`` reads.
    ///
    /// A value that is there is never `nil`: `nil` means "nothing to
    /// migrate", and a value this version cannot read must be kept as
    /// `unrecognised` (and removed by a sign-out), not ignored.
    public func data(forKey key: String) -> Data? {
        guard let defaults, let value = defaults.object(forKey: key) else { return nil }
        if let data = value as? Data { return data }
        if let text = value as? String { return Data(text.utf8) }
        do {
            return try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        } catch {
            // Cannot happen for what UserDefaults holds (property-list types only); if it
            // did, empty bytes read as unrecognised, so the value is kept, never ignored.
            return Data()
        }
    }

    public func removeValue(forKey key: String) {
        defaults?.removeObject(forKey: key)
    }
}
