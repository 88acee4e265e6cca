import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SessionError {
    /// The typed error an answer of your API names, for an app that wants
    /// one: `nil` for a 2xx.
    ///
    /// ``SessionClient/send(_:)`` returns every answer that is your API's own
    /// (a 422, a 403, a 500) rather than throwing it; this reads such an
    /// answer as the client reads its own calls' answers: the gateway
    /// envelope and both GoTrue shapes give their codes and message
    /// (``forbidden``, ``invalidRequest``, ``server``, ``rateLimited`` with
    /// `Retry-After`, …), and a 401 or GoTrue's 403 `bad_jwt` (which `send`
    /// already refreshed and retried) is ``requestRejected``: the session goes on.
    ///
    /// ```swift
    /// let (data, response) = try await client.send(URLRequest(url: apiURL.appendingPathComponent("runs")))
    /// if let error = SessionError(answer: data, response: response) { throw error }
    /// ```
    public init?(answer data: Data, response: HTTPURLResponse) {
        if (200..<300).contains(response.statusCode) { return nil }
        // What `send` used to throw, so the two readings never disagree.
        let error = ResponseClassifier.error(status: response.statusCode, body: data, headers: response, context: .request)
        guard SessionClient.rejectsToken(response, data) || error == .sessionExpired else {
            self = error
            return
        }
        self = SessionError.requestRejected.with(
            status: error.status, gatewayCode: error.gatewayCode, goTrueErrorCode: error.goTrueErrorCode,
            retryAfter: error.retryAfter, underlying: error.underlying ?? error.message)
    }
}
