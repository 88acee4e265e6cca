import Foundation
import SessionCore

/// What a profile remembers besides its session: the server it signed in to,
/// so `sessionctl whoami` after `sessionctl login --server …` asks the same
/// server without repeating the flag. Kept in `profile.json`, mode 0600,
/// beside `session.json`.
struct ProfileSettings: Codable, Sendable, Equatable {
    var server: String
    /// Supabase's anon key; not a secret, but kept private with the session anyway.
    var apiKey: String?

    enum CodingKeys: String, CodingKey {
        case server
        case apiKey = "api_key"
    }

    static func fileURL(in directory: URL) -> URL { directory.appendingPathComponent("profile.json") }

    /// The saved settings, or `nil` when there are none.
    ///
    /// - Throws: ``CLIError`` when the file exists but cannot be read as settings.
    static func load(from directory: URL) throws(CLIError) -> ProfileSettings? {
        let url = fileURL(in: directory)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try WireCoding.decoder().decode(ProfileSettings.self, from: data)
        } catch {
            throw CLIError.failed(
                "\(url.path) is not valid; delete it or pass --server. (\(error.localizedDescription))")
        }
    }

    /// Writes the settings with mode 0600 (the folder 0700).
    func save(in directory: URL) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try WireCoding.encoder().encode(self)
        let url = Self.fileURL(in: directory)
        try data.write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}
