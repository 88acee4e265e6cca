import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SessionKit
import Testing

/// `setBearer`, the header `send` beside the actor sets without Foundation's
/// per-`Character` check (docs/BENCHMARKS.md, "Round 3"): the same header as
/// `setValue`, and nothing but a space and visible ASCII written past it.
struct BearerHeaderTests {
    @Test func replacesAnAuthorizationHeaderOfAnyCaseAndKeepsTheOthers() {
        var request = URLRequest(url: URL(string: "https://api.example.app/runs")!)
        request.allHTTPHeaderFields = ["authorization": "Basic dXNlcjpwYXNz", "Accept": "application/json"]
        request.setBearer("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln")
        let fields = request.allHTTPHeaderFields ?? [:]
        #expect(fields.keys.filter { $0.lowercased() == "authorization" }.count == 1)
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test func setsTheSameHeaderAsSetValue() {
        let url = URL(string: "https://api.example.app/runs")!
        var bySetValue = URLRequest(url: url)
        bySetValue.setValue("Bearer a.b.c", forHTTPHeaderField: "Authorization")
        var bySetBearer = URLRequest(url: url)
        bySetBearer.setBearer("a.b.c")
        #expect(bySetBearer.allHTTPHeaderFields == bySetValue.allHTTPHeaderFields)
    }

    /// The DPoP path sets `Authorization: DPoP` and the proof the same way (docs/BENCHMARKS.md,
    /// "The client's cost of a DPoP proof"): the same fields as `setValue`, an old field of any case replaced.
    @Test func setsTheSameLongHeadersAsSetValue() {
        let url = URL(string: "https://api.example.app/runs")!
        let proof = "eyJ0eXAiOiJkcG9wK2p3dCJ9.eyJqdGkiOiJ4In0." + String(repeating: "A_-z", count: 150)
        var bySetValue = URLRequest(url: url)
        bySetValue.setValue("*/*", forHTTPHeaderField: "Accept")
        var byLongHeader = bySetValue
        bySetValue.setValue("DPoP a.b.c", forHTTPHeaderField: "Authorization")
        bySetValue.setValue(proof, forHTTPHeaderField: "DPoP")
        byLongHeader.setLongHeader("DPoP a.b.c", for: .authorization)
        byLongHeader.setLongHeader(proof, for: .dpop)
        #expect(byLongHeader.allHTTPHeaderFields == bySetValue.allHTTPHeaderFields)

        var replaced = URLRequest(url: url)
        replaced.allHTTPHeaderFields = ["dpop": "old", "Accept": "*/*"]
        replaced.setLongHeader(proof, for: .dpop)
        #expect((replaced.allHTTPHeaderFields ?? [:]).keys.filter { $0.lowercased() == "dpop" }.count == 1)
        #expect(replaced.value(forHTTPHeaderField: "dpop") == proof)
        #expect(replaced.value(forHTTPHeaderField: "Accept") == "*/*")
    }

    /// The byte check decides which values skip `setValue`: every other value
    /// (a tab, DEL, a control byte, non-ASCII, a line break) goes through it,
    /// so the request ends with exactly the fields `setValue` leaves.
    @Test(arguments: ["a b~", "a\tb", "a\u{7F}b", "a\u{1F}b", "caf\u{E9}", "a\rb", "a\nb", "a\u{0}b", " ", "~"])
    func leavesTheFieldsSetValueLeavesForEveryByte(_ value: String) {
        let url = URL(string: "https://api.example.app/runs")!
        var bySetValue = URLRequest(url: url)
        bySetValue.setValue(value, forHTTPHeaderField: "DPoP")
        var byLongHeader = URLRequest(url: url)
        byLongHeader.setLongHeader(value, for: .dpop)
        #expect(byLongHeader.allHTTPHeaderFields == bySetValue.allHTTPHeaderFields)
    }

    /// A token from a hostile server with a line break cannot add a header:
    /// it goes through `setValue`, which refuses it.
    @Test func aTokenWithALineBreakAddsNoHeader() {
        var request = URLRequest(url: URL(string: "https://api.example.app/runs")!)
        request.setBearer("a.b.c\r\nX-Injected: 1")
        #expect(request.value(forHTTPHeaderField: "X-Injected") == nil)
        #expect((request.allHTTPHeaderFields ?? [:]).keys.allSatisfy { $0.lowercased() != "x-injected" })
    }
}
