import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import SessionCore

/// Redirects of requests that carry the access token.
///
/// The default transport returns a 3xx as it is (``URLSessionTransport``):
/// followed by URLSession, a 307 or 308 would replay the `Authorization`
/// header and the body to any host the `Location` names. The client follows
/// a redirect itself, token attached, only to an origin it may send the token
/// to; anywhere else is ``SessionError/originNotAllowed``, nothing sent.
extension SessionClient {
    static let maximumRedirects = 5
    /// The statuses a redirect is followed on (and that `send` beside the actor hands to the actor).
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to send next, or `nil` when `answer` is not a redirect to follow.
    func redirect(after request: URLRequest, answer: HTTPURLResponse, hops: Int) throws(SessionError) -> URLRequest? {
        guard Self.redirectStatuses.contains(answer.statusCode),
            let location = answer.value(forHTTPHeaderField: "Location"),
            let target = URL(string: location, relativeTo: request.url)?.absoluteURL
        else { return nil }
        guard origins.authorizes(target) else {
            logger.warning(
                "Refused to follow a redirect to another origin with the access token",
                metadata: ["host": "\(target.host ?? "-")", "status": "\(answer.statusCode)"])
            throw SessionError.originNotAllowed.with(
                status: answer.statusCode,
                underlying: "redirected to \(target.host ?? "no host"), which is not in authorizedOrigins; nothing was sent there")
        }
        guard hops < Self.maximumRedirects else {
            throw SessionError.requestRejected.with(status: answer.statusCode, underlying: "more than \(Self.maximumRedirects) redirects")
        }
        var next = request
        next.url = target
        // 303, and 301/302 after a POST, continue as a GET without the body (RFC 9110, 15.4).
        if answer.statusCode == 303 || ([301, 302].contains(answer.statusCode) && request.httpMethod == "POST") {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
        }
        return next
    }
}
