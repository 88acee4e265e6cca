import Foundation
import SessionKit

/// The app's own API, called through the client: it attaches the access
/// token, refreshes it first when it has expired, and retries once on a 401.
enum RunsAPI {
    struct Run: Decodable, Identifiable, Sendable {
        let id: String
        let title: String
    }

    static func list() async throws(SessionError) -> [Run] {
        let request = URLRequest(url: AppSession.apiURL.appendingPathComponent("runs"))
        let (data, _) = try await AppSession.client.send(request)
        do {
            return try JSONDecoder().decode([Run].self, from: data)
        } catch {
            throw SessionError.decoding.with(underlying: "GET /runs: \(error)")
        }
    }
}
