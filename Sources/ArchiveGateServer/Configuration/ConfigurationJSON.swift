import ArchiveGateCore
import Foundation

/// A JSON value that keeps its type: `true`, `1`, `1.5` and `"1"` are four different things.
///
/// `JSONSerialization` turns `true` into an `NSNumber` that also reads as the integer 1, which is
/// how a tenant file's `"maxBodyBytes": true` used to become a 1-byte limit. Configuration and
/// tenant files are read through this type instead, so a wrong type is an error that names the key.
enum ConfigurationJSON: Decodable, Equatable, Sendable {
    case boolean(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([ConfigurationJSON])
    case object([String: ConfigurationJSON])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ConfigurationJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ConfigurationJSON].self))
        }
    }

    /// Parses a whole document; nil when `data` is not JSON. A member named twice in one object
    /// throws (`JSONDuplicateKeys`, the check policies go through too): `JSONDecoder` would keep
    /// the first silently, `JSONSerialization` the last.
    static func parse(_ data: Data) throws(DuplicateJSONKey) -> ConfigurationJSON? {
        if let duplicate = JSONDuplicateKeys.first(in: Array(data)) { throw duplicate }
        return try? JSONDecoder().decode(ConfigurationJSON.self, from: data)
    }

    /// What the value is, for error messages ("got a string").
    var typeName: String {
        switch self {
        case .boolean: "a boolean"
        case .integer: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        case .null: "null"
        }
    }
}
