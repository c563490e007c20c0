import ArchiveGateCore
import Foundation

/// One JSON Lines record of a batch or a database scan: where the archive came from, its status
/// and then its report, its JSON or its error. Built from already-encoded pieces, so converted JSON
/// is copied in as rendered, never re-parsed.
struct BatchRecord {
    private var bytes: [UInt8] = [0x7B]

    /// Starts a record with its origin fields (`file`, or `table`/`column`/`rowid`), its verdict
    /// (`verdict`, and `verdictReason` when it has one) and its status (none in `validate`'s
    /// one-file reports).
    init(origin: KeyValuePairs<String, OriginValue>, verdict: Verdict, status: String?) {
        for (key, value) in origin {
            switch value {
            case .text(let text): append(key, Self.encode(text))
            case .integer(let number): append(key, Array(String(number).utf8))
            case .null: append(key, Array("null".utf8))
            }
        }
        var members = JSONDocumentWriter(capacity: 64)
        verdict.writeMembers(to: &members)
        bytes.append(contentsOf: bytes.count > 1 ? members.bytes[...] : members.bytes.dropFirst())
        if let status { append("status", Self.encode(status)) }
    }

    enum OriginValue {
        case text(String)
        case integer(Int64)
        case null
    }

    /// The report, written by the core's one report writer.
    mutating func append(report: ValidationReport) {
        append("report", report.json)
    }

    mutating func append(json: [UInt8]) {
        append("json", json)
    }

    mutating func append(error: ArchiveGateError) {
        let fields = ["code": error.code.rawValue, "location": error.location, "message": error.message]
        append("error", (try? Self.encoder.encode(fields)).map(Array.init) ?? Array("null".utf8))
    }

    /// The record as one line, newline included.
    var line: [UInt8] { bytes + [0x7D, 0x0A] }

    private mutating func append(_ key: String, _ value: [UInt8]) {
        if bytes.count > 1 { bytes.append(0x2C) }
        bytes += Self.encode(key)
        bytes.append(0x3A)
        bytes += value
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A JSON string literal for `text`.
    static func encode(_ text: String) -> [UInt8] {
        (try? encoder.encode(text)).map(Array.init) ?? Array("\"\"".utf8)
    }
}
