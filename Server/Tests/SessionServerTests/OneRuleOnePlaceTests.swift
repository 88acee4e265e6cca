import Foundation
import Testing

/// Issue 36, items 8 to 10: three cross-cutting rules of the server, each in
/// one place. A new route or store method that copies one of them by hand
/// fails here and should call the one place instead.
struct OneRuleOnePlaceTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/SessionServer")

    /// The files under `Sources/SessionServer` whose text contains `needle`, by path below it.
    static func files(containing needle: String) throws -> Set<String> {
        var found: Set<String> = []
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".swift"), path != "Routes/OpenAPIDocument.swift" else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            if text.contains(needle) { found.insert(path) }
        }
        return found
    }

    /// Item 8: the client's address is resolved once, by the middleware; only
    /// `/metrics` reads the socket peer (it answers unforwarded local requests).
    @Test func theClientsAddressIsResolvedInOnePlace() throws {
        #expect(try Self.files(containing: ".clientAddress(") == ["Middleware/ClientAddressMiddleware.swift"])
        #expect(try Self.files(containing: "context.peerIP") == ["Middleware/ClientAddressMiddleware.swift", "AuthServer.swift"])
    }

    /// Item 9: every limiter is built from the registry.
    @Test func everyLimiterIsBuiltFromTheRegistry() throws {
        #expect(try Self.files(containing: "SharedRateLimiter(store:") == ["RateLimits/RateLimiters.swift"])
        #expect(try Self.files(containing: "RateLimiter(limit:") == ["RateLimits/RateLimiters.swift"])
    }

    /// Item 10: every revocation clears the session-check cache through one function.
    @Test func onlyOneFunctionClearsTheSessionCheckCache() throws {
        #expect(try Self.files(containing: "sessionChecks.forgetAll()") == ["Middleware/SessionValidator.swift"])
    }
}
