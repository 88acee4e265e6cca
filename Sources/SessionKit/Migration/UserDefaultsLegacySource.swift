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

    public func data(forKey key: String) -> Data? {
        guard let defaults else { return nil }
        if let data = defaults.data(forKey: key) { return data }
        if let text = defaults.string(forKey: key) { return Data(text.utf8) }
        if let dictionary = defaults.dictionary(forKey: key), JSONSerialization.isValidJSONObject(dictionary) {
            do {
                return try JSONSerialization.data(withJSONObject: dictionary)
            } catch {
                // Not expressible as JSON (a date inside, say): unreadable as a session blob.
                return nil
            }
        }
        return nil
    }

    public func removeValue(forKey key: String) {
        defaults?.removeObject(forKey: key)
    }
}
