import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// Decoding shared by the backends: bodies are parsed, never trusted.
public enum BackendDecoding {
    /// Decodes `T` from a bare body or a gateway success envelope.
    ///
    /// - Throws: ``SessionError/decoding`` naming what could not be read.
    public static func decode<T: Codable & Sendable>(
        _ type: T.Type, from data: Data, what: String
    ) throws(SessionError) -> T {
        let decoder = WireCoding.decoder()
        let bareError: any Error
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            bareError = error
        }
        do {
            return try decoder.decode(SuccessEnvelope<T>.self, from: data).data
        } catch {
            // Report the bare-body failure: it names the field that was wrong.
            throw SessionError.decoding.with(
                message: "The server's \(what) could not be read.", underlying: describe(bareError))
        }
    }

    /// Checks a decoded session body is usable: both tokens present and of sane size.
    ///
    /// A zero, negative or missing `expires_in` is not refused: the server
    /// has already rotated the refresh token, so the answer must be kept; the
    /// expiry then comes from `expires_at` or the JWT's `exp` (see
    /// `Session.init(response:serverNow:)`) and the client's backoff keeps
    /// a token that is due on arrival from causing a refresh loop.
    ///
    /// - Throws: ``SessionError/decoding`` naming the field; nothing is stored from such a body.
    public static func validate(_ response: TokenResponse) throws(SessionError) -> TokenResponse {
        let problem: String? =
            if response.accessToken.isEmpty { "access_token is empty" }
            else if response.refreshToken.isEmpty { "refresh_token is empty" }
            else if response.accessToken.utf8.count > 16 * 1024 { "access_token is larger than 16 KiB" }
            else { nil }
        if let problem {
            throw SessionError.decoding.with(message: "The server's session could not be used.", underlying: problem)
        }
        return response
    }

    /// Encodes a request body.
    static func encode(_ value: some Encodable) throws(SessionError) -> Data {
        do {
            return try WireCoding.encoder().encode(value)
        } catch {
            throw SessionError.invalidRequest.with(underlying: "encoding: \(error)")
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context): context.debugDescription
        default: "not JSON"
        }
    }
}
