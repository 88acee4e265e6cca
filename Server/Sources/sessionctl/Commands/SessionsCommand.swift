import ArgumentParser
import Foundation
import SessionCore
import SessionKit

/// `sessionctl sessions`: this user's signed-in devices, the current one marked.
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions", abstract: "List your signed-in devices (GET /v1/sessions); * marks this one.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.execute { context in
            let devices = try await context.withSession { client, _ in
                do {
                    return try await context.spin("Asking the server") { try await client.deviceSessions() }
                } catch let error as SessionError where error == .notFound {
                    throw CLIError.failed(
                        "This server has no SessionKit gateway (/v1/sessions answered 404), so it cannot list devices. "
                            + "Device lists need auth-server; a hosted Supabase project does not offer one.")
                }
            }
            context.output.emit(Self.table(devices), json: ["sessions": try Output.jsonValue(devices)])
        }
    }

    static func table(_ devices: [DeviceSession]) -> String {
        guard !devices.isEmpty else { return "No signed-in devices." }
        var lines = ["  ID                                    SIGNED IN                 LAST REFRESH              CLIENT"]
        for device in devices {
            let mark = device.current ? "*" : " "
            let refreshed = device.lastRefreshedAt.map(WireCoding.formatDate) ?? "-"
            let client = [device.userAgent, device.ip].compactMap { $0 }.joined(separator: ", ")
            lines.append(
                "\(mark) \(device.id.padding(toLength: 37, withPad: " ", startingAt: 0)) "
                    + "\(WireCoding.formatDate(device.createdAt).padding(toLength: 25, withPad: " ", startingAt: 0)) "
                    + "\(refreshed.padding(toLength: 25, withPad: " ", startingAt: 0)) \(client.isEmpty ? "-" : client)")
        }
        return lines.joined(separator: "\n")
    }
}
