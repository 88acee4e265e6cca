import Foundation

/// Reads optional fields of one keyed container leniently: a value of an
/// unexpected shape becomes `nil` and its path is reported to ``DroppedFields``.
struct LenientFields<Key: CodingKey> {
    let container: KeyedDecodingContainer<Key>
    let decoder: any Decoder

    /// The raw value, `nil` when absent or `null`; an unparseable value is reported.
    mutating func raw(_ key: Key) -> JSONValue? {
        do {
            switch try container.decodeIfPresent(JSONValue.self, forKey: key) {
            case .null?, nil: return nil
            case let value?: return value
            }
        } catch {
            DroppedFields.report(key, in: decoder)
            return nil
        }
    }

    mutating func string(_ key: Key) -> String? {
        read(key) { value in
            switch value {
            case .string(let text): text
            case .number: LenientDecoding.identifier(value)
            default: nil
            }
        }
    }

    mutating func identifier(_ key: Key) -> String? { read(key, LenientDecoding.identifier) }

    mutating func date(_ key: Key) -> Date? { read(key) { LenientDecoding.date($0) } }

    mutating func bool(_ key: Key) -> Bool? {
        read(key) { value in
            switch value {
            case .bool(let flag): flag
            case .number(let number) where number == 0 || number == 1: number == 1
            case .string("true"): true
            case .string("false"): false
            default: nil
            }
        }
    }

    mutating func object(_ key: Key) -> [String: JSONValue]? {
        read(key) { value in
            if case .object(let fields) = value { return fields }
            return nil
        }
    }

    /// A string, or the first string of an array (`aud` is an array in some JWT libraries' bodies).
    mutating func audience(_ key: Key) -> String? {
        read(key) { value in
            switch value {
            case .string(let text): text
            case .array(let values): values.lazy.compactMap(\.stringValue).first
            default: nil
            }
        }
    }

    /// A nested value decoded with the container; dropped (and reported) when it throws.
    mutating func decode<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        do {
            return try container.decodeIfPresent(type, forKey: key)
        } catch {
            DroppedFields.report(key, in: decoder)
            return nil
        }
    }

    private mutating func read<T>(_ key: Key, _ convert: (JSONValue) -> T?) -> T? {
        guard let value = raw(key) else { return nil }
        if let converted = convert(value) { return converted }
        DroppedFields.report(key, in: decoder)
        return nil
    }
}
