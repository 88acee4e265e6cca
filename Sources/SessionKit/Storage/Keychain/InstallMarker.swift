import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Remembers that this install of the app has run, somewhere the system
/// deletes with the app: keychain items survive an app's deletion, its
/// UserDefaults do not. ``KeychainSessionStore`` asks it, when told to, to
/// tell a session this install saved from one a deleted install left.
public protocol InstallMarker: Sendable {
    /// True once ``mark()`` ran in this install.
    func isMarked() -> Bool
    /// Records that this install has run.
    func mark()
}

/// The marker as a UserDefaults key.
///
/// Use the suite of an app group every target shares
/// (`UserDefaults(suiteName: "group.com.example")`): an extension's standard
/// defaults are its own, and an extension that found no marker there would
/// take the app's session for a deleted install's.
public struct UserDefaultsInstallMarker: InstallMarker {
    /// The suite, `nil` for the app's standard defaults.
    public let suiteName: String?
    /// The key.
    public let key: String

    public init(suiteName: String? = nil, key: String = "SessionKit.installMarker") {
        self.suiteName = suiteName
        self.key = key
    }

    public func isMarked() -> Bool {
        defaults.bool(forKey: key)
    }

    public func mark() {
        defaults.set(true, forKey: key)
    }

    private var defaults: UserDefaults {
        // UserDefaults is not Sendable; a new handle per call reads the same store.
        suiteName.flatMap { UserDefaults(suiteName: $0) } ?? .standard
    }
}
