import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// Sets `Authorization: Bearer <token>`, replacing any `Authorization`
    /// the request had (whatever its case).
    ///
    /// Not `setValue(_:forHTTPHeaderField:)`: on Linux, FoundationNetworking
    /// checks a value for CR, LF and NUL by walking its `Character`s, grapheme
    /// breaking included, about 40 µs for a ~800-byte bearer on the benchmark
    /// machine, the largest part of what `send` cost beside a hand-set header
    /// (docs/BENCHMARKS.md, "Round 3"). The same check here reads the UTF-8
    /// bytes: only a space and visible ASCII (what a JWT and "Bearer " are
    /// made of) take this path; anything else goes through `setValue`, which
    /// refuses it as before.
    mutating func setBearer(_ token: String) {
        setLongHeader("Bearer \(token)", for: .authorization)
    }

    /// The headers the client writes on each request with a long value: a
    /// token (`Authorization`) and a DPoP proof (`DPoP`), each ~600 bytes.
    enum LongHeader {
        case authorization
        case dpop

        /// The name `setValue(_:forHTTPHeaderField:)` files the field under,
        /// asked of Foundation once: FoundationNetworking stores it
        /// `capitalized` (`DPoP` becomes `Dpop`), Apple's Foundation as given.
        var name: String {
            switch self {
            case .authorization: Self.authorizationName
            case .dpop: Self.dpopName
            }
        }

        private static let authorizationName = storedName(of: "Authorization")
        private static let dpopName = storedName(of: "DPoP")

        private static func storedName(of field: String) -> String {
            var probe = URLRequest(url: URL(fileURLWithPath: "/"))
            probe.setValue("x", forHTTPHeaderField: field)
            return probe.allHTTPHeaderFields?.keys.first { $0.lowercased() == field.lowercased() } ?? field
        }
    }

    /// Sets `header` to `value` as `setValue(_:forHTTPHeaderField:)` does
    /// (the same field name, a field of any case replaced), with the same
    /// check read on the UTF-8 bytes (docs/BENCHMARKS.md, "The client's cost
    /// of a DPoP proof").
    mutating func setLongHeader(_ value: String, for header: LongHeader) {
        let name = header.name
        guard Self.isSpaceOrVisibleASCII(value) else {
            setValue(value, forHTTPHeaderField: name)
            return
        }
        let lowercased = name.lowercased()
        var fields = allHTTPHeaderFields ?? [:]
        for key in fields.keys where key.lowercased() == lowercased { fields[key] = nil }
        fields[name] = value
        allHTTPHeaderFields = fields
    }

    /// True when every byte of `value` is a space or visible ASCII. Read from
    /// the contiguous UTF-8 buffer when there is one: byte by byte through
    /// `UTF8View`'s iterator, the check was a quarter of what `send` beside the
    /// actor cost with an in-process transport (docs/BENCHMARKS.md, "Round 3").
    private static func isSpaceOrVisibleASCII(_ value: String) -> Bool {
        let fast = value.utf8.withContiguousStorageIfAvailable { bytes in
            // One unsigned comparison a byte: `&- 0x20` maps exactly 0x20...0x7E below 0x5F.
            !bytes.contains { $0 &- 0x20 >= 0x5F }
        }
        return fast ?? value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
