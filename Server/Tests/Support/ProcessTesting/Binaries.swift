import Foundation

/// The executables `swift build` puts beside the test bundle: `auth-server`,
/// `sessionctl` and `store-probe`.
public enum Binaries {
    /// The build products folder: the test runner's own folder when it holds
    /// `auth-server` (`swift test` runs from `.build/debug`), else this
    /// package's `.build/debug`, found from this file's path.
    public static let folder: URL = {
        let runner = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: runner.appendingPathComponent("auth-server").path) {
            return runner
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug")
    }()

    public static var authServer: String { folder.appendingPathComponent("auth-server").path }
    public static var sessionctl: String { folder.appendingPathComponent("sessionctl").path }
    public static var storeProbe: String { folder.appendingPathComponent("store-probe").path }

    /// Why a test needing `executables` cannot run, or `nil` when all are built.
    public static func missing(_ executables: [String]) -> String? {
        let absent = executables.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        guard !absent.isEmpty else { return nil }
        return "Not built: \(absent.joined(separator: ", ")). Run `swift build --build-tests` before `swift test --skip-build`."
    }

    /// A fresh temporary folder for one test.
    public static func temporaryFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sessionkit-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
