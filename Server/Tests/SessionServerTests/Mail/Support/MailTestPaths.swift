import Foundation

/// Where the mail tests find files outside the test target.
enum MailTestPaths {
    /// The listener script, relative to this file's folder (Tests/SessionServerTests/Mail/Support/).
    /// The only line to change if this folder or the script moves.
    static let listenerScriptFromHere = "../../../../scripts/smtp-listener.py"

    static var listenerScript: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent(listenerScriptFromHere).standardizedFileURL.path
    }

    /// A fresh directory under the system's temporary directory.
    static func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
