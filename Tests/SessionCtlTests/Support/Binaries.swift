import Foundation

/// The built `sessionctl` and `auth-server` executables: next to the test
/// bundle (`.build/debug/` for `swift test`), else in the package's
/// `.build/debug/` found from this file's path.
enum Binaries {
    static let directory: String = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug"),
        ]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("sessionctl").path) }
        return (found ?? candidates.last!).path
    }()

    static var sessionctl: String { directory + "/sessionctl" }
    static var authServer: String { directory + "/auth-server" }

    /// Why the tests cannot run, if they cannot.
    static var missing: String? {
        let absent = [sessionctl, authServer].filter { !FileManager.default.isExecutableFile(atPath: $0) }
        guard !absent.isEmpty else { return nil }
        return "Not built: \(absent.joined(separator: ", ")). Run `swift build --build-tests` before `swift test --skip-build`."
    }
}
