import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// A transport that answers from a script, in order, and records every request.
///
/// When the script runs out the last answer repeats. Presets cover the
/// usual answers: ``ScriptedResponse/session(_:)``, ``ScriptedResponse/goTrueError(status:code:)``,
/// ``ScriptedResponse/gatewayError(status:code:retryAfter:)``, ``ScriptedResponse/failure(_:)``.
public actor ScriptedTransport: HTTPTransport {
    private var script: [ScriptedResponse]
    private var last: ScriptedResponse?
    /// Every request received, in order.
    public private(set) var requests: [URLRequest] = []

    public init(_ script: [ScriptedResponse]) {
        self.script = script
    }

    /// Appends answers to the script.
    public func enqueue(_ responses: ScriptedResponse...) { script.append(contentsOf: responses) }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        requests.append(request)
        let next: ScriptedResponse
        if script.isEmpty {
            guard let last else { throw URLError(.resourceUnavailable) }
            next = last
        } else {
            next = script.removeFirst()
            last = next
        }
        switch next.kind {
        case .failure(let code):
            throw URLError(code)
        case .answer(let status, let body, let headers):
            guard let url = request.url,
                let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
            else { throw URLError(.badServerResponse) }
            return (body, response)
        }
    }
}

/// One scripted answer.
public struct ScriptedResponse: Sendable {
    enum Kind: Sendable {
        case answer(status: Int, body: Data, headers: [String: String])
        case failure(URLError.Code)
    }

    let kind: Kind

    /// Any answer.
    public static func answer(status: Int, body: Data = Data(), headers: [String: String] = [:]) -> Self {
        Self(kind: .answer(status: status, body: body, headers: headers))
    }

    /// No answer: the transport throws `URLError(code)`.
    public static func failure(_ code: URLError.Code) -> Self { Self(kind: .failure(code)) }

    /// 200 with a session body.
    public static func session(_ response: TokenResponse, headers: [String: String] = [:]) -> Self {
        let body: Data
        do {
            body = try WireCoding.encoder().encode(response)
        } catch {
            body = Data()
        }
        return answer(status: 200, body: body, headers: headers)
    }

    /// A GoTrue error body.
    public static func goTrueError(status: Int, code: GoTrueErrorCode) -> Self {
        answer(status: status, body: Data(#"{"code":\#(status),"error_code":"\#(code.rawValue)","msg":"scripted"}"#.utf8))
    }

    /// A gateway error envelope, optionally with `Retry-After`.
    public static func gatewayError(status: Int, code: GatewayErrorCode, retryAfter: Int? = nil) -> Self {
        var headers: [String: String] = [:]
        if let retryAfter { headers["Retry-After"] = String(retryAfter) }
        return answer(
            status: status,
            body: Data(#"{"success":false,"error":{"code":"\#(code.rawValue)","message":"scripted"}}"#.utf8),
            headers: headers)
    }
}
