import Foundation
import SessionKit

/// The app's own API, called through the client: it attaches the access
/// token, refreshes it first when it has expired, and retries once on a 401.
///
/// `GET /runs` on `AppSession.apiURL` stands for your API: the repository's
/// `auth-server` does not serve it. To try the sample against `auth-server`
/// alone, set `apiURL` to the server's URL and call `v1/activities`, its
/// sample resource (answered as `{"success": true, "data": [...]}`).
enum RunsAPI {
    struct Run: Decodable, Identifiable, Sendable {
        let id: String
        let title: String
    }

    /// What the API answered when it was not a 2xx: its status and its own error body.
    struct Failure: Error {
        let status: Int
        let body: Data
    }

    /// - Throws: ``SessionError`` for what the session decided (expired,
    ///   sign-in required, offline), ``Failure`` with the API's own answer otherwise.
    static func list() async throws -> [Run] {
        let request = URLRequest(url: AppSession.apiURL.appendingPathComponent("runs"))
        // `send` returns every answer of the API itself, a 422 or a 500 included, as URLSession does.
        let (data, response) = try await AppSession.client.send(request)
        guard (200..<300).contains(response.statusCode) else {
            throw Failure(status: response.statusCode, body: data)
        }
        return try JSONDecoder().decode([Run].self, from: data)
    }
}
