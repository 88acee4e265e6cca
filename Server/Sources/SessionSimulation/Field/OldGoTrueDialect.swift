import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore
import SessionKit

/// The server speaks GoTrue before v2.164 (issue 31, row 4): a refresh it
/// refuses is answered with OAuth's `invalid_grant` and a description, no
/// code. Refresh answers that end the session are rewritten to what that
/// server sent for them: "Refresh Token Not Found" for a token it no longer
/// holds (signed out, deleted, expired), "Already Used" for a reuse.
///
/// Only the server's own verdicts are rewritten, never made up: a random
/// "not found" on a live session would be a lie no server tells, and no
/// client could survive it. The texts are GoTrue's `oauthError("invalid_grant", …)`
/// of `internal/api/token_refresh.go` before v2.164.
struct OldGoTrueDialect: TransportMiddleware {
    /// The ends GoTrue's older versions answered as "Refresh Token Not Found".
    static let endedCodes: Set<GoTrueErrorCode> = [.refreshTokenNotFound, .sessionNotFound, .sessionExpired, .userNotFound]

    let trace: LifeTrace

    func intercept(
        _ request: URLRequest, next: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)
    ) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await next(request)
        guard ChaosMiddleware.isRefresh(request), response.statusCode >= 400,
            let code = ServerErrorBody.parse(data)?.goTrueErrorCode
        else { return (data, response) }
        let description: String
        if code == .refreshTokenAlreadyUsed {
            description = SessionEndingCodes.legacyAlreadyUsed
        } else if Self.endedCodes.contains(code) {
            description = SessionEndingCodes.legacyNotFound
        } else {
            return (data, response)
        }
        trace.note("old GoTrue: \(code.rawValue) answered as invalid_grant \"\(description)\"")
        let body = try JSONSerialization.data(withJSONObject: ["error": "invalid_grant", "error_description": description])
        var fields: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, let value = value as? String, key.lowercased() != "content-length" { fields[key] = value }
        }
        guard let url = response.url,
            let rewritten = HTTPURLResponse(url: url, statusCode: 400, httpVersion: "HTTP/1.1", headerFields: fields)
        else { return (data, response) }
        return (body, rewritten)
    }
}

extension AppLife {
    /// Whether this life's server speaks old GoTrue, drawn apart from the
    /// life's own generator so the other draws (and the seeds' lives) stay as they were.
    var speaksOldGoTrue: Bool {
        guard parameters.oldGoTrueShare > 0 else { return false }
        var draw = SplitMix64(seed: report.seed ^ 0x6f6c_645f_676f_7472)
        return draw.chance(parameters.oldGoTrueShare)
    }
}
