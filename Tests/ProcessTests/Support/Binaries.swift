import Foundation

/// The executables `swift build` puts beside the test bundle.
enum Binaries {
    /// The build products folder: the test runner's own folder, else `.build/debug` of this package.
    static let folder: URL = {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: runner.appendingPathComponent("store-probe").path) {
            return runner
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug")
    }()

    static var storeProbe: String { folder.appendingPathComponent("store-probe").path }
    static var authServer: String { folder.appendingPathComponent("auth-server").path }

    /// A fresh temporary folder for one test.
    static func temporaryFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sessionkit-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
