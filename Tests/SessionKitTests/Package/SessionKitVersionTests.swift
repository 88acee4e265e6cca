import Foundation
import Testing

@testable import SessionKit

/// The version is stated in three places a person reads; they must agree, or
/// an app's install line names a tag the release never made.
struct SessionKitVersionTests {
    /// The repository's root, found from this file (Tests/SessionKitTests/Package/).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func theChangelogsNewestHeadingIsTheStatedVersion() throws {
        let changelog = try Self.read("CHANGELOG.md")
        let newest = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        #expect(newest.dropFirst(3).hasPrefix(SessionKitVersion.current + " ") || newest.dropFirst(3) == SessionKitVersion.current)
    }

    @Test func theReadmesInstallLineNamesTheStatedVersion() throws {
        let readme = try Self.read("README.md")
        #expect(readme.contains(#"from: "\#(SessionKitVersion.current)")"#))
        #expect(readme.contains("from `\(SessionKitVersion.current)`"))
    }

    @Test func theVersionIsSemantic() {
        let parts = SessionKitVersion.current.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil })
    }
}
