import Foundation
import SessionKit

/// One launch of the app (or of its extension): a `SessionClient` on the
/// shared store, and the task that tallies its events.
struct AppProcess: Sendable {
    let client: SessionClient
    let process: SimulatedProcess
    let listener: Task<Void, Never>

    init(client: SessionClient, process: SimulatedProcess, tally: EventTally) {
        self.client = client
        self.process = process
        let events = client.events
        self.listener = Task {
            for await event in events { tally.record(event, from: process) }
        }
    }

    /// The OS ends the process here: nothing it does afterwards reaches the
    /// network or the disk. (The client object is then shut down and dropped.)
    func kill() async {
        process.kill()
        await client.shutdown()
        await listener.value
    }

    /// A normal exit (an extension finishing its work).
    func exit() async {
        await client.shutdown()
        await listener.value
    }
}

/// How an app request ended, as the app saw it.
enum RequestOutcome: Sendable {
    case ok
    /// Any other failure, with what the SDK said (for a violation's report).
    case transient(String)
    /// 401 (or the session ended) reached the app.
    case unauthorized
    case notSignedIn
}
