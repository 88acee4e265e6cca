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
        } catch let error as SessionError {
            // A session that ended moves the model to `.signedOut` by itself; offline keeps the person signed in.
            message = error.message
        } catch let failure as RunsAPI.Failure {
            // The API refused this call (its own 4xx or 5xx): the person is still signed in.
            message = "The server answered \(failure.status)."
        } catch {
            message = "The runs could not be read."
        }
    }
}
