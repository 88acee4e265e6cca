import Foundation
import SessionKit

/// The share extension's client: the app's session, read from the shared
/// Keychain access group. Extensions have no `UIApplication`, so the store
/// uses the designated initialiser and says where protected data comes from.
enum ExtensionSession {
    static let client: SessionClient = {
        let lockDirectory = FileManager.default
            .containerURL(forSecurityApplicationGroupIdentifier: "group.com.example")?
            .appendingPathComponent("SessionKit")
        let store = KeychainSessionStore(
            keychain: SecItemKeychain(),
            accessGroup: "TEAMID.com.example.shared",
            lockDirectory: lockDirectory,
            protectedData: AlwaysAvailableProtectedData())
        // Short-lived: no background refresh, no lifecycle to follow, no check with the server at launch.
        var configuration = SessionClientConfiguration(
            backend: .goTrue(url: URL(string: "https://auth.example.com")!, apiKey: "YOUR-ANON-KEY"),
            store: store, launchValidation: .skip, automaticRefresh: false,
            authorizedOrigins: [URL(string: "https://api.example.com")!])
        configuration.observesAppLifecycle = false
        return SessionClient(configuration: configuration)
    }()

    /// Shares a link to the app's API as the signed-in person.
    static func share(_ link: URL) async throws(SessionError) {
        _ = try await client.restore()
        var request = URLRequest(url: URL(string: "https://api.example.com/shares")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"url":"\#(link.absoluteString)"}"#.utf8)
        _ = try await client.send(request)
    }
}
