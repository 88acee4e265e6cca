import Foundation
import SessionCore

/// Prints results either for a person or, with `--json`, for a script.
struct Output: Sendable {
    let json: Bool

    /// Prints a line for a person, or `object` as one JSON line.
    func emit(_ human: String, json object: [String: JSONValue]) {
        if json {
            print(Self.encode(.object(object)))
        } else {
            print(human)
        }
    }

    /// Prints a failure: the message on standard error for a person, or a
    /// JSON error object on standard output for a script.
    func fail(_ error: CLIError) {
        if json {
            print(Self.encode(["error": ["code": .string(error.code), "message": .string(error.message)]]))
        } else {
            FileHandle.standardError.write(Data((error.message + "\n").utf8))
        }
    }

    static func encode(_ value: JSONValue) -> String {
        let encoder = WireCoding.encoder()
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // JSONValue always encodes; keep the output valid JSON regardless.
            return #"{"error":{"code":"FAILED","message":"could not encode output"}}"#
        }
    }
}
