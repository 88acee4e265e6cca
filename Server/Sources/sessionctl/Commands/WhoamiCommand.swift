import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// `sessionctl whoami`: asks the server who the session belongs to (`GET /v1/auth/me`).
struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami", abstract: "Ask the server who is signed in (GET /v1/auth/me).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.execute { context in
            let user = try await context.withSession { client, _ in
                try await context.spin("Asking the server") { try await Self.fetchUser(client, context: context) }
            }
            context.output.emit(Self.describe(user), json: ["user": try Output.jsonValue(user)])
        }
    }

    /// The gateway's user; on a server without the gateway (a hosted Supabase
    /// project answers 404), GoTrue's own `/auth/v1/user`, saying so.
    static func fetchUser(_ client: SessionClient, context: CLIContext) async throws -> SessionUser {
        let request = URLRequest(url: context.server.appendingPathComponent("v1/auth/me"))
        do {
            let (data, response) = try await client.send(request)
            // `send` returns the server's own non-2xx answers: read them as the typed errors they name.
            if let error = SessionError(answer: data, response: response) { throw error }
            do {
                return try WireCoding.decoder().decode(SuccessEnvelope<SessionUser>.self, from: data).data
            } catch {
                throw CLIError.failed("The server's answer to /v1/auth/me could not be read. Is --server an auth-server?")
            }
        } catch let error as SessionError where error == .notFound {
            context.output.note(
                "This server has no SessionKit gateway (/v1/auth/me answered 404; a hosted Supabase project?). "
                    + "Showing the user from /auth/v1/user instead.")
            return try await client.me()
        }
    }

    static func describe(_ user: SessionUser) -> String {
        var lines = [user.email ?? "(no email)", "  id:      \(user.id)", "  role:    \(user.role)"]
        if let created = user.createdAt { lines.append("  created: \(WireCoding.formatDate(created))") }
        if let lastSignIn = user.lastSignInAt { lines.append("  last sign-in: \(WireCoding.formatDate(lastSignIn))") }
        if !user.userMetadata.isEmpty {
            lines.append("  metadata: \(Output.encode(.object(user.userMetadata)))")
        }
        return lines.joined(separator: "\n")
    }
}
