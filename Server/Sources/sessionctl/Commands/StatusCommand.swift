import ArgumentParser
import Foundation
import SessionCore
import SessionKit

/// `sessionctl status`: who is signed in on this profile and until when.
///
/// Reads the stored session without asking the server, unless the access
/// token has expired (then it refreshes, as every command would).
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show whether this profile is signed in, as whom, and until when.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.execute { context in
            let state = try await context.withClient { client in
                try await context.spin("Checking your session") { try await client.restore() }
            }
            switch state {
            case .signedIn(let session):
                context.output.emit(Self.describe(session, context: context), json: SignedInSummary.json(session, context: context))
            case .offline(let session), .needsAttention(let session, _):
                context.output.emit(
                    Self.describe(session, context: context) + "\n" + CLIError.unreachable().message,
                    json: SignedInSummary.json(session, context: context, state: "offline"))
                throw ExitCode(CLIError.unreachable().exitCode)
            case .expired(let reason):
                throw CLIError.expired(reason)
            case .locked(let reason):
                throw CLIError.locked(reason)
            case .signedOut, .restoring:
                throw CLIError.notSignedIn()
            }
        }
    }

    static func describe(_ session: Session, context: CLIContext) -> String {
        """
        Signed in as \(session.user?.email ?? session.user?.id ?? "an unknown user") on \(context.server.absoluteString) (profile \(context.profile)).
        Access token valid until \(WireCoding.formatDate(session.expiresAt)); it is refreshed when needed.
        """
    }
}
