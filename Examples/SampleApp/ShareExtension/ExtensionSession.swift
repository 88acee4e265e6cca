import Foundation
import SessionKit

/// The share extension's client: the app's session, read from the shared
/// Keychain access group. Extensions have no `UIApplication`, so the store
/// uses the designated initialiser and asks the Keychain itself whether the
/// device has been unlocked: before the first unlock after a restart, iOS
/// may answer "no such item" for the session that is there.
enum ExtensionSession {
    // The app's values (`AppSession`): an extension is a module of its own.
    static let authURL = URL(string: "https://auth.example.com")!
    static let apiURL = URL(string: "https://api.example.com")!
    static let anonKey = "YOUR-ANON-KEY"
    static let accessGroup = "TEAMID.com.example.shared"
    static let appGroup = "group.com.example"

    static let client: SessionClient = {
        // No app group container (the entitlement missing): no cross-process lock, still a working client.
        let lockDirectory = FileManager.default
            .containerURL(forSecurityApplicationGroupIdentifier: appGroup)?
            .appendingPathComponent("SessionKit")
        let keychain = SecItemKeychain()
        let store = KeychainSessionStore(
            keychain: keychain,
            accessGroup: accessGroup,
            lockDirectory: lockDirectory,
            protectedData: KeychainProbeProtectedData(keychain: keychain, accessGroup: accessGroup))
        // Short-lived: no background refresh, no check with the server at launch,
        // and no app lifecycle to follow (an extension has no `UIApplication`).
        var configuration = SessionClientConfiguration(
            backend: .goTrue(url: authURL, apiKey: anonKey),
            store: store, launchValidation: .skip, automaticRefresh: false,
            authorizedOrigins: [apiURL])
        configuration.observesAppLifecycle = false
        return SessionClient(configuration: configuration)
    }()

    /// Shares a link to the app's API as the signed-in person.
    static func share(_ link: URL) async throws(SessionError) {
        _ = try await client.restore()
        var request = URLRequest(url: apiURL.appendingPathComponent("shares"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"url":"\#(link.absoluteString)"}"#.utf8)
        let (_, response) = try await client.send(request)
        guard (200..<300).contains(response.statusCode) else {
            throw SessionError.requestFailed.with(status: response.statusCode, underlying: "POST /shares")
        }
    }
}

