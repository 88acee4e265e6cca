// Names the documentation's Swift blocks take from the app around them.
// docblocks.py adds each `// assume:` section to a document's module unless
// the document declares that name itself. A placeholder here says what the
// samples expect of it (its type), nothing more: keep it honest and small.
#if canImport(AuthenticationServices)
import AuthenticationServices
#endif
import Foundation
import SessionKit
import SessionKitTesting
import SwiftUI

// assume: AppSession
/// The app's one client (GettingStartedWithAnIOSApp, "Create one client").
enum AppSession {
    static let client = SessionClient(configuration: .init(
        backend: .goTrue(url: URL(string: "https://auth.example.com")!, apiKey: "YOUR-ANON-KEY"),
        store: KeychainSessionStore()))
}

// assume: ContentView
/// The app's signed-in screen.
struct ContentView: View {
    var body: some View { Text("Signed in") }
}

// assume: SignInView
/// The app's sign-in screen.
struct SignInView: View {
    var body: some View { Text("Sign in") }
}

// assume: RootView
/// The app's root view, choosing a screen from `SessionModel.phase`.
struct RootView: View {
    var body: some View { Text("Root") }
}

// assume: Run
/// A type of the app's own API.
struct Run: Decodable, Sendable {
    let id: String
}

// assume: client
/// A client made as the samples before it show.
let client = AppSession.client

// assume: authURL
let authURL = URL(string: "https://auth.example.com")!

// assume: apiURL
/// The app's own API, on another origin than the auth server.
let apiURL = URL(string: "https://api.example.com")!

// assume: serverURL
let serverURL = URL(string: "https://auth.example.com")!

// assume: anonKey
let anonKey = "YOUR-ANON-KEY"

// assume: directory
/// A private folder of the app's (a CLI's `~/.config/myapp`).
let directory = URL(fileURLWithPath: NSHomeDirectory() + "/.config/myapp")

// assume: group
/// The app group's container (GettingStartedWithAnIOSApp, "Share the session").
let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example")!

// assume: email
let email = "ada@example.com"

// assume: password
let password = "correct-horse-battery"

// assume: typedCode
/// What the person typed from the email.
let typedCode = "123456"

// assume: newPassword
let newPassword = "a-new-passphrase"

// assume: old
/// The current password, asked again.
let old = "correct-horse-battery"

// assume: port
/// The port a CLI's loopback listener bound.
let port = 53_682

// assume: listener
/// A CLI's own loopback HTTP listener (docs/OAUTH.md): hands back the URL the browser was sent to.
let listener = LoopbackListener()
struct LoopbackListener {
    func nextRequestURL() async throws -> URL { URL(string: "http://127.0.0.1:53682/callback")! }
}

// assume: fake
/// The fake GoTrue server of SessionKitTesting, on a manual clock.
let fake = FakeAuthBackend(clock: ManualClock())

// assume: alert
/// Shows a message to the person.
@MainActor func alert(_ message: String) {}

// assume: show
/// Shows a message to the person.
@MainActor func show(_ message: String) {}

// assume: passwordField
/// The sign-in screen's password field, which can shake.
@MainActor let passwordField = PasswordField()
@MainActor final class PasswordField {
    func shake() {}
}

// assume: backend
/// A backend for the samples of SessionKitTesting: its fake GoTrue server.
let backend = FakeAuthBackend(clock: ManualClock())

// assume: refresh
/// Your backend's refresh endpoint.
let refresh = URL(string: "https://api.example.com/auth/refresh")!

// assume: me
/// Your backend's "who am I" endpoint.
let me = URL(string: "https://api.example.com/auth/me")!

// assume: callbackURL
/// The redirect the app received (`onOpenURL`).
let callbackURL = URL(string: "myapp://oauth?code=abc")!

// assume: dir
/// A private folder of the program's.
let dir = URL(fileURLWithPath: NSHomeDirectory() + "/.config/myapp")

// assume: token
/// An access or ID token.
let token = "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"

// assume: item
/// A Keychain item's name.
let item = KeychainItem(service: "com.example.app.sessionkit", account: "session")

// assume: keychain
/// The test's in-memory keychain.
let keychain = InMemoryKeychain()

// assume: showSignIn
/// Shows the sign-in screen with a message.
@MainActor func showSignIn(_ message: String) {}

#if canImport(AuthenticationServices)
// assume: request
/// The app's Sign in with Apple request.
@MainActor let request = ASAuthorizationAppleIDProvider().createRequest()
#endif
