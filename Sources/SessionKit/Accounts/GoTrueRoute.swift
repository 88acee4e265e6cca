import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// A request to a GoTrue route that ``BackendOperation`` does not name (anonymous
/// sign-in, an email change's confirmation, identity linking): built here so the
/// public operation enum stays as it is (scripts/check-api.sh).
///
/// Other backends have none of these routes: they answer ``SessionError/unsupported``
/// with what `feature` needs, before anything is sent.
struct GoTrueRoute: Sendable {
    let feature: String

    func request(
        _ backend: any SessionBackend, _ method: String, _ path: String, query: [String: String] = [:], body: Data? = nil
    ) throws(SessionError) -> URLRequest {
        try build(backend, method, path, query: query, body: body)
    }

    /// The same, with a body encoded from `value`.
    func request(
        _ backend: any SessionBackend, _ method: String, _ path: String, query: [String: String] = [:], json value: some Encodable
    ) throws(SessionError) -> URLRequest {
        let body = try BackendDecoding.encode(value)
        return try request(backend, method, path, query: query, body: body)
    }

    private func build(
        _ backend: any SessionBackend, _ method: String, _ path: String, query: [String: String], body: Data?
    ) throws(SessionError) -> URLRequest {
        guard let goTrue = backend as? GoTrueBackend else {
            throw SessionError.unsupported.with(
                message: "\(feature) needs a Supabase Auth (GoTrue) backend or auth-server (docs/ACCOUNTS.md).")
        }
        var request = URLRequest(url: Self.url(goTrue.url.appendingPathComponent(path), query: query))
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        backend.prepare(&request)
        return request
    }

    /// Strict query encoding, as ``GoTrueBackend`` writes its own: `&`, `=` and `+` in a value
    /// (a `redirect_to` with a query) must not split it.
    static func url(_ base: URL, query: [String: String]) -> URL {
        guard !query.isEmpty, var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return base }
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        components.percentEncodedQuery = query.sorted { $0.key < $1.key }.map {
            "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        return components.url ?? base
    }

    /// An id that goes into a path: only the characters of a UUID (GoTrue's ids), so nothing can change the path.
    static func checkedID(_ id: String, what: String) throws(SessionError) -> String {
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw SessionError.invalidRequest.with(message: "The \(what) is not valid.")
        }
        return id
    }
}
