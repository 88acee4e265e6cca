import Foundation

/// How long a user may go unseen, as an operator writes it on the command
/// line: a whole number and a unit, `30d`, `12h`, `90m`, `3600s`
/// (`auth-server users prune-anonymous --older-than 30d`).
public struct IdleAge: Sendable, Hashable, CustomStringConvertible {
    /// The age in seconds.
    public let seconds: TimeInterval
    public let description: String

    /// - Throws: ``ConfigurationError`` naming the accepted shape, for anything
    ///   else (no unit, a fraction, zero, more than ten years).
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = trimmed.last, let scale = units[unit], let count = Int(trimmed.dropLast()), count > 0,
            TimeInterval(count) * scale <= 3650 * 86_400
        else {
            throw ConfigurationError(
                "'\(text.prefix(40))' is not an age: write a whole number and s, m, h or d, e.g. 30d (at most 3650d).")
        }
        seconds = TimeInterval(count) * scale
        description = trimmed
    }
}
