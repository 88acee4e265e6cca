import SessionKit
import SwiftUI

/// Chooses the screen from the session's phase. While the Keychain is read
/// (`.restoring`) it shows neither screen, so a signed-in person never sees
/// the sign-in screen flash at launch.
struct RootView: View {
    @Environment(SessionModel.self) private var model

    var body: some View {
        switch model.phase {
        case .restoring: ProgressView()
        case .signedIn: RunsView()
        case .signedOut: SignInView()
        }
    }
}
