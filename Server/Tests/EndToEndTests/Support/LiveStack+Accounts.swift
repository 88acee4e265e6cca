import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit
import Testing

extension LiveStack {
    /// Signs a new account up through `client` and returns its session.
    @discardableResult
    func signUp(_ client: SessionClient, email: String, password: String = "correct-horse-9") async throws -> Session {
        let result = try await client.signUp(email: email, password: password)
        guard case .signedIn(let session) = result else {
            throw LiveStackError(description: "sign-up of \(email) did not sign in: \(result)")
        }
        return session
    }

    /// A request to this server for `client.send`.
    func request(_ method: String, _ path: String, json: String? = nil) -> URLRequest {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        return request
    }
}

struct LiveStackError: Error, CustomStringConvertible {
    let description: String
}
