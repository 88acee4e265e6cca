import SessionKit
import SwiftUI

/// Email and password, a provider's page (PKCE in an `ASWebAuthenticationSession`),
/// and Sign in with Apple. Every failure shows as one message.
struct SignInView: View {
    @Environment(SessionModel.self) private var model
    @State private var email = ""
    @State private var password = ""
    /// Kept alive while Apple's sheet is up.
    @State private var apple = AppleSignInController { SystemWebAuthenticationPresenter.keyWindow() }
    @State private var appleError: String?

    var body: some View {
        Form {
            TextField("Email", text: $email)
            SecureField("Password", text: $password)
            Button("Sign In") {
                Task { await model.signIn(email: email, password: password) }
            }
            Button("Sign In with Strava") {
                Task {
                    // Declare the `sampleapp` URL scheme in the app's URL types and put
                    // this URL on the server's redirect allow-list.
                    await model.signIn(
                        provider: "strava", redirectTo: URL(string: "sampleapp://oauth-callback")!,
                        presenter: SystemWebAuthenticationPresenter())
                }
            }
            Button("Sign In with Apple") {
                Task { await signInWithApple() }
            }
            if let message = model.lastError?.message ?? appleError {
                Text(message)
            }
        }
    }

    private func signInWithApple() async {
        appleError = nil
        do {
            // The model sees the new session through the client's state stream.
            _ = try await apple.signIn(with: AppSession.client)
        } catch where error == .oauthDenied {
            // The person closed Apple's sheet: nothing to report.
        } catch {
            appleError = error.message
        }
    }
}
