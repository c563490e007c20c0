import Foundation
import Testing
@testable import ArchiveGateCore

/// Turns what readers return back into `PropertyListValue` trees, so a written value can be
/// compared with what our reader and Foundation's independent reader make of it.
enum WriterTestSupport {
    struct ConversionError: Error, CustomStringConvertible {
        var description: String
    }

    /// The tree of our reader's `plist` below `index` (the root by default). Throws on nesting
    /// deeper than `maxDepth`, which is how a cycle shows up here.
    static func tree(_ plist: PropertyList, at index: Int? = nil, maxDepth: Int = 64) throws -> PropertyListValue {
        try tree(plist, index ?? plist.root, depth: 0, maxDepth: maxDepth)
    }

    private static func tree(_ plist: PropertyList, _ index: Int, depth: Int, maxDepth: Int) throws -> PropertyListValue {
        guard depth <= maxDepth else { throw ConversionError(description: "deeper than \(maxDepth): a cycle?") }
        let object = plist[index]
        switch object.kind {
        case .null: return .null
        case .bool: return .bool(object.first != 0)
        case .integer: return .integer(plist.integer128(object))
        case .real: return .real(Double(bitPattern: object.first))
        case .date: return .date(Double(bitPattern: object.first))
        case .data: return .data(plist.data(at: index).map { Array($0) } ?? [])
        case .asciiString, .utf8String, .utf16String: return .string(plist.string(at: index) ?? "")
        case .uid: return .uid(UInt32(object.first))
        case .array, .set:
            let elements = try plist.children(of: index).map { try tree(plist, Int($0), depth: depth + 1, maxDepth: maxDepth) }
            return object.kind == .array ? .array(elements) : .set(elements)
        case .dictionary:
            return .dictionary(try (0 ..< plist.count(of: index)).map { pair in
                let key = plist.dictionaryKey(index, pair: pair)
                guard let text = plist.string(at: key) else { throw ConversionError(description: "non-string key") }
                let value = try tree(plist, plist.dictionaryValue(index, pair: pair), depth: depth + 1, maxDepth: maxDepth)
                return PropertyListValue.Entry(key: text, value: value)
            })
        }
    }

    /// Reads `bytes` with our reader and converts the result to a tree.
    static func readBack(_ bytes: [UInt8]) throws -> PropertyListValue {
        try tree(PropertyList.read(bytes))
    }

    /// Reads `bytes` with Foundation's `PropertyListSerialization` and converts the result to a
    /// tree whose dictionaries are sorted by key (Foundation does not keep key order).
    static func readWithFoundation(_ bytes: [UInt8]) throws -> PropertyListValue {
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        return try foundationTree(object)
    }

    private static func foundationTree(_ object: Any) throws -> PropertyListValue {
        switch object {
        case let string as String:
            return .string(string)
        case let data as Data:
            return .data(Array(data))
        case let date as Date:
            return .date(date.timeIntervalSinceReferenceDate)
        case is NSNull:
            return .null
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return .bool(number.boolValue)
            case "f", "d": return .real(number.doubleValue)
            case "Q", "L", "I", "S", "C": return .integer(Int128(number.uint64Value))
            default: return .integer(Int128(number.int64Value))
            }
        case let array as [Any]:
            return .array(try array.map(foundationTree))
        case let dictionary as [String: Any]:
            return .dictionary(try dictionary.sorted { $0.key < $1.key }.map {
                PropertyListValue.Entry(key: $0.key, value: try foundationTree($0.value))
            })
        default:
            // `_NSKeyedArchiverUID` is internal to Foundation; its stored `value` is visible to Mirror.
            if String(describing: type(of: object)).contains("KeyedArchiverUID"),
               let value = Mirror(reflecting: object).children.first(where: { $0.label == "value" })?.value as? UInt32 {
                return .uid(value)
            }
            throw ConversionError(description: "unexpected Foundation value of type \(type(of: object))")
        }
    }

    /// `value` with every dictionary sorted by key, to compare with Foundation's unordered result.
    static func sortedKeys(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .array(let elements): .array(elements.map(sortedKeys))
        case .set(let elements): .set(elements.map(sortedKeys))
        case .dictionary(let entries):
            .dictionary(entries.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: sortedKeys($0.value)) })
        default: value
        }
    }

    /// Expects our reader to reject `bytes` with `code`.
    static func expectReadError(_ code: PropertyListError.Code, _ bytes: [UInt8],
                                sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: PropertyListError(code, "expected \(code)"), sourceLocation: sourceLocation) {
            try PropertyList.read(bytes)
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }
            .joined(separator: " ")
    }
}
