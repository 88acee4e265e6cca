import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SessionServer

/// `openapi.yaml` is the one source of truth; the server serves it as is.
struct OpenAPIDocumentTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("openapi.yaml")

    @Test func servesTheRepositoryDocumentByteForByte() async throws {
        let expected = try String(contentsOf: Self.file, encoding: .utf8)
        let test = try await TestServer.make()
        try await test.run { client in
            let response = try await client.executeRequest(uri: "/openapi.yaml", method: .get, headers: [:], body: nil)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/yaml; charset=utf-8")
            // If this fails, run scripts/embed-openapi.sh after editing openapi.yaml.
            #expect(response.text == expected)
        }
    }

    /// Every route the router serves is in the document with its method, and nothing else is.
    @Test func documentsEveryRouteAndMethod() async throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        var documented: Set<String> = []
        var path: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if !line.hasPrefix(" ") {
                path = nil
            } else if let path, let method = ["get", "put", "post", "patch", "delete"].first(where: { line == "    \($0):" }) {
                documented.insert("\(method.uppercased()) \(path)")
            }
        }
        let test = try await TestServer.make()
        // The HTML pages of /account and /admin are for people, not API clients: docs/ADMIN.md describes them.
        let served = Set(
            test.server.buildRouter().routes.map { "\($0.method) \($0.path)" }
                .filter { !$0.contains(" /account") && !$0.contains(" /admin") })
        #expect(documented.count == 52)
        #expect(documented == served)
    }
}
