import Foundation
import Hummingbird
import NIOCore
import SessionCore

/// Reads request bodies: capped at 64 KiB, decoded with the wire coders, and
/// every failure turned into an ``AuthError`` that names the field.
enum RequestDecoding {
    /// The cap on request bodies (docs/DESIGN.md, "Bad input").
    static let maximumBodySize = 64 * 1024

    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        guard let value = try await decodeIfPresent(type, from: request) else {
            throw AuthError.badJSON("the body is empty")
        }
        return value
    }

    /// Like ``decode(_:from:)``, for an optional body: an empty one is `nil`.
    static func decodeIfPresent<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T? {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maximumBodySize)
        } catch is NIOTooManyBytesError {
            throw AuthError.payloadTooLarge
        }
        guard buffer.readableBytes > 0 else { return nil }
        do {
            return try WireCoding.decoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw describe(error)
        }
    }

    /// Names the field and what was wrong with it.
    static func describe(_ error: DecodingError) -> AuthError {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context, key)
            return .invalidRequest(field: field, "\(field) is required.")
        case .typeMismatch(let type, let context):
            let field = path(context)
            if field.isEmpty { return .invalidRequest(field: nil, "The body must be a JSON object.") }
            return .invalidRequest(field: field, "\(field) must be \(describe(type)).")
        case .valueNotFound(let type, let context):
            let field = path(context)
            return .invalidRequest(field: field, "\(field) must be \(describe(type)), not null.")
        case .dataCorrupted(let context):
            let field = path(context)
            if field.isEmpty { return .badJSON("the body is not valid JSON") }
            return .invalidRequest(field: field, "\(field) is not valid: \(context.debugDescription.prefix(80))")
        @unknown default:
            return .badJSON("the body could not be read")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Int.Type: "a number"
        case is Bool.Type: "a boolean"
        case is Date.Type: "an RFC 3339 date"
        default: type is any Collection.Type ? "an array or object" : "a value of the right type"
        }
    }
}

/// JSON responses with the wire encoder.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try WireCoding.encoder().encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A gateway success: `{"success": true, "data": …}`.
    static func success<T: Codable & Sendable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        try make(SuccessEnvelope(data: value), status: status)
    }
}
