import SessionKit
import SwiftUI

/// The app: one ``SessionModel`` for every view, fed by the one client.
@main
struct SampleApp: App {
    @State private var model = SessionModel(client: AppSession.client)

    var body: some Scene {
        WindowGroup {
            RootView()
                .environment(model)
                // Restores the stored session, then follows the client for the app's lifetime.
                .task { await model.run() }
        }
    }
}
