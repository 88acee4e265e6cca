import ArgumentParser
import Foundation
import SessionCore
import SessionKit

/// `sessionctl refresh`: rotates the session now, even if the token is still valid.
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: "Refresh the session now.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.execute { context in
            let session = try await context.withSession { client, _ in
                try await context.spin("Refreshing your session") { try await client.refresh() }
            }
            context.output.emit(
                "Refreshed; the access token is valid until \(WireCoding.formatDate(session.expiresAt)).",
                json: SignedInSummary.json(session, context: context))
        }
    }
}
