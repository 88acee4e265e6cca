import Foundation

/// JSON coders configured for the wire: snake_case keys are spelled out by
/// each type's `CodingKeys`, dates are RFC 3339 strings as GoTrue writes them.
public enum WireCoding {
    /// An encoder writing RFC 3339 dates with fractional seconds and sorted keys.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        return encoder
    }

    /// A decoder accepting RFC 3339 dates with or without fractional seconds.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an RFC 3339 date, got '\(text.prefix(40))'")
            }
            return date
        }
        // Lenient types report the fields they dropped here (see ``DroppedFields``).
        decoder.userInfo[DroppedFields.key] = DroppedFields()
        return decoder
    }

    /// Formats `date` as RFC 3339 in UTC with fractional seconds.
    public static func formatDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Parses an RFC 3339 date with or without fractional seconds.
    public static func parseDate(_ text: String) -> Date? {
        for style in [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()] {
            do {
                return try style.parse(text)
            } catch {
                // GoTrue writes both forms; the caller reports a miss on both.
                continue
            }
        }
        return nil
    }
}
