import Foundation
import Logging
import SessionKit

/// The app's one client, shared with its share extension through a Keychain
/// access group (Keychain Sharing entitlement on both targets) and an app
/// group folder for the refresh lock (App Groups entitlement on both).
enum AppSession {
    static let authURL = URL(string: "https://auth.example.com")!
    static let apiURL = URL(string: "https://api.example.com")!
    static let anonKey = "YOUR-ANON-KEY"
    static let accessGroup = "TEAMID.com.example.shared"
    static let appGroup = "group.com.example"

    static let client: SessionClient = {
        let lockDirectory = FileManager.default
            .containerURL(forSecurityApplicationGroupIdentifier: appGroup)?
            .appendingPathComponent("SessionKit")
        var configuration = SessionClientConfiguration(
            backend: .goTrue(url: authURL, apiKey: anonKey),
            store: KeychainSessionStore(accessGroup: accessGroup, lockDirectory: lockDirectory))
        // `send(_:)` attaches the token to the auth server's origins and these: the API is elsewhere.
        configuration.authorizedOrigins = [apiURL]
        // SessionKit's log in Console.app and Xcode, next to the app's own.
        configuration.logger = Logger(label: "SessionKit") { OSLogHandler(label: $0, subsystem: "com.example.app") }
        return SessionClient(configuration: configuration)
    }()
}
