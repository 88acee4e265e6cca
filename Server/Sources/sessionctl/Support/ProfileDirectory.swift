import Foundation

/// Where a profile's session lives: `$XDG_CONFIG_HOME/sessionkit/<profile>`,
/// else `~/.config/sessionkit/<profile>`.
struct ProfileDirectory {
    let url: URL

    /// Resolves the directory for `profile` from `environment`.
    ///
    /// - Throws: ``CLIError`` when the profile name could escape the folder.
    init(profile: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        // A profile name becomes a path component; refuse anything that could
        // climb out of the sessionkit folder.
        guard !profile.isEmpty, profile.count <= 64,
            profile.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }),
            profile != ".", profile != ".."
        else {
            throw CLIError.usage("Profile names use letters, digits, '-', '_' and '.', up to 64 characters.")
        }
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        url = base.appendingPathComponent("sessionkit", isDirectory: true)
            .appendingPathComponent(profile, isDirectory: true)
    }
}
