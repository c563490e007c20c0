import ArchiveGateCore
import Foundation

/// A one-line rendering of an archive's objects for `--only` reproductions: `{$class: @7, NS.time: 5.5}`.
extension PropertyListValue {
    var compact: String {
        switch self {
        case .string(let text): "\"\(text.unicodeScalars.map { $0.value < 0x20 ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined())\""
        case .integer(let value): String(value)
        case .real(let value): "\(value)r"
        case .bool(let flag): String(flag)
        case .date(let seconds): "date(\(seconds))"
        case .data(let bytes): "<\(bytes.prefix(24).map { String(format: "%02x", $0) }.joined())\(bytes.count > 24 ? "…(\(bytes.count))" : "")>"
        case .uid(let uid): "@\(uid)"
        case .array(let elements): "[" + elements.map(\.compact).joined(separator: ", ") + "]"
        case .set(let elements): "set[" + elements.map(\.compact).joined(separator: ", ") + "]"
        case .dictionary(let entries): "{" + entries.map { "\($0.key): \($0.value.compact)" }.joined(separator: ", ") + "}"
        case .null: "null"
        }
    }
}
