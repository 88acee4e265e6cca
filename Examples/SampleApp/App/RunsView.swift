import SessionKit
import SwiftUI

/// The signed-in screen: the person's runs from the app's own API, and sign-out.
struct RunsView: View {
    @Environment(SessionModel.self) private var model
    @State private var runs: [RunsAPI.Run] = []
    @State private var message: String?

    var body: some View {
        VStack {
            if let email = model.user?.email {
                Text("Signed in as \(email)")
            }
            ForEach(runs) { run in
                Text(run.title)
            }
            if let message {
                Text(message)
            }
            Button("Reload") {
                Task { await load() }
            }
            Button("Sign Out") {
                Task { await model.signOut() }
            }
        }
        .task { await load() }
    }

    private func load() async {
        do {
            runs = try await RunsAPI.list()
            message = nil
        } catch {
            // `.requestRejected`: the API refused this call, the person is still signed in.
            // A session that ended moves the model to `.signedOut` by itself.
            message = error.message
        }
    }
}
