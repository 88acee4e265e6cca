import Foundation
import SessionCore

/// Prints results either for a person or, with `--json`, for a script.
///
/// Writes go straight to the file descriptors, unbuffered, so a line reaches
/// a pipe the moment it is printed (`watch` feeds other programs).
struct Output: Sendable {
    let json: Bool

    /// Prints a line for a person, or `object` as one JSON line.
    func emit(_ human: String, json object: [String: JSONValue]) {
        if json {
            Self.write(Self.encode(.object(object)), to: .standardOutput)
        } else {
            Self.write(human, to: .standardOutput)
        }
    }

    /// Prints a note for a person on standard error; silent with `--json`.
    func note(_ text: String) {
        guard !json else { return }
        Self.write(text, to: .standardError)
    }

    /// Prints a failure: the message on standard error for a person, or a
    /// JSON error object on standard output for a script.
    func fail(_ error: CLIError) {
        if json {
            Self.write(
                Self.encode(["error": ["code": .string(error.code), "message": .string(error.message)]]),
                to: .standardOutput)
        } else {
            Self.write(error.message, to: .standardError)
        }
    }

    static func write(_ line: String, to handle: FileHandle) {
        handle.write(Data((line + "\n").utf8))
    }

    static func encode(_ value: JSONValue) -> String {
        let encoder = WireCoding.encoder()
        encoder.outputFormatting.insert(.sortedKeys)
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // JSONValue always encodes; keep the output valid JSON regardless.
            return #"{"error":{"code":"FAILED","message":"could not encode output"}}"#
        }
    }

    /// Any wire value (a user, a device list) as JSON for `emit`.
    ///
    /// - Throws: ``CLIError`` if it cannot be represented (never for wire types).
    static func jsonValue(_ value: some Encodable) throws(CLIError) -> JSONValue {
        do {
            let data = try WireCoding.encoder().encode(value)
            return try WireCoding.decoder().decode(JSONValue.self, from: data)
        } catch {
            throw CLIError.failed("Could not format the output: \(error.localizedDescription)")
        }
    }

    static func date(_ date: Date) -> JSONValue { .string(WireCoding.formatDate(date)) }
}
