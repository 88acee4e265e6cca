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
        case streamsFinished
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
                case .signedIn, .offline: break
                }
                let states = client.states
                return await withTaskGroup(of: End.self) { group in
                    group.addTask {
                        for await event in events { printer.print(event) }
                        return .streamsFinished
                    }
                    group.addTask {
                        for await state in states {
                            printer.print(state)
                            switch state {
                            case .expired, .signedOut: return .ended(state)
                            default: continue
                            }
                        }
                        return .streamsFinished
                    }
                    group.addTask {
                        _ = await trap.next()
                        return .interrupted
                    }
                    let end = await group.next() ?? .streamsFinished
                    group.cancelAll()
                    return end
                }
            }
            switch end {
            case .interrupted, .streamsFinished:
                return
            case .ended(.expired(let reason)):
                throw CLIError.expired(reason)
            case .ended:
                throw CLIError.notSignedIn()
            }
        }
    }
}
