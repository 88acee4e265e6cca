import ArgumentParser
import Foundation
import SessionKit

/// `sessionctl watch`: stays running with automatic refresh on and prints
/// every state change and event with a timestamp, until Ctrl-C (exit 0) or
/// until the session ends (exit 1).
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Stay signed in and print each state change and event (refresh, offline, online, expired).")

    @OptionGroup var global: GlobalOptions

    /// Why watching stopped.
    private enum End: Sendable {
        case interrupted
        case ended(SessionState)
    }

    func run() async throws {
        try await global.execute { context in
            let trap = SignalTrap()
            let printer = WatchPrinter(output: context.output)
            let end = try await context.withClient(.watching) { client in
                // Subscribe to events before restoring so a refresh at launch is printed.
                let events = client.events
                let state = try await client.restore()
                switch state {
                case .signedOut, .restoring: throw CLIError.notSignedIn()
                case .expired(let reason): throw CLIError.expired(reason)
                case .locked(let reason): throw CLIError.locked(reason)
                case .signedIn, .offline, .needsAttention: break
                }
                let states = client.states
                return await withTaskGroup(of: End?.self) { group in
                    group.addTask {
                        for await event in events { printer.print(event) }
                        return nil
                    }
                    group.addTask {
                        for await state in states {
                            printer.print(state)
                            switch state {
                            case .expired, .signedOut: return .ended(state)
                            default: continue
                            }
                        }
                        return nil
                    }
                    group.addTask { await trap.next().map { _ in .interrupted } }
                    let first = await group.next() ?? nil
                    // Finishing the streams (rather than cancelling the printers)
                    // lets them print what is already buffered, such as the
                    // `sessionExpired` event that follows the `expired` state.
                    await client.shutdown()
                    trap.stop()
                    var end = first
                    for await result in group where end == nil { end = result }
                    return end ?? .interrupted
                }
            }
            switch end {
            case .interrupted:
                return
            case .ended(.expired(let reason)):
                throw CLIError.expired(reason)
            case .ended:
                throw CLIError.notSignedIn()
            }
        }
    }
}
