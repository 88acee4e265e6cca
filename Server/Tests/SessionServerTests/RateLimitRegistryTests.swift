import Foundation
import SessionKitTesting
@testable import SessionServer
import Testing

/// The one table of rate limiters (issue 36, item 9): docs/SERVER.md lists
/// exactly its rows, with the defaults the server starts with.
struct RateLimitRegistryTests {
    static let serverDoc = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/SERVER.md")

    /// `name → (per, limit, window)` from the table under "**Rate limits.**".
    static func documentedLimits() throws -> [String: (per: String, limit: Int, window: Int)] {
        let text = try String(contentsOf: serverDoc, encoding: .utf8)
        guard let start = text.range(of: "**Rate limits.**") else { throw UnexpectedResponse(description: "no rate limits table") }
        var rows: [String: (per: String, limit: Int, window: Int)] = [:]
        for line in text[start.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") })
            .prefix(while: { $0.hasPrefix("|") })
        {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, cells[0].hasPrefix("`"),
                let limit = Int(cells[2]), let window = Int(cells[3].replacingOccurrences(of: " s", with: ""))
            else { continue }
            rows[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = (cells[1], limit, window)
        }
        return rows
    }

    @Test func theDocumentedTableIsTheRegistry() throws {
        let documented = try Self.documentedLimits()
        let defaults = AuthServerConfiguration.testing(clock: ManualClock())
        #expect(Set(documented.keys) == Set(RateLimitRule.all.map(\.name)))
        for rule in RateLimitRule.all {
            let row = try #require(documented[rule.name], "docs/SERVER.md has no row for \(rule.name)")
            #expect(row.per == rule.per, "\(rule.name)")
            #expect(row.limit == rule.limit(in: defaults), "\(rule.name)")
            #expect(row.window == Int(rule.window), "\(rule.name)")
        }
    }

    @Test func everyRuleHasItsOwnName() {
        #expect(Set(RateLimitRule.all.map(\.name)).count == RateLimitRule.all.count)
    }
}
