import ArchiveGateCore

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

    /// `{"code","location","message"}` (in that order: the sorted keys the record always had).
    mutating func append(error: ArchiveGateError) {
        var fields = JSONDocumentWriter(capacity: 128)
        fields.raw("{\"code\":")
        fields.string(error.code.rawValue)
        fields.raw(",\"location\":")
        fields.string(error.location)
        fields.raw(",\"message\":")
        fields.string(error.message)
        fields.raw("}")
        append("error", fields.bytes)
    }

    /// The record as one line, newline included.
    var line: [UInt8] {
        var line = [UInt8]()
        line.reserveCapacity(bytes.count + 2)
        line += bytes
        line.append(0x7D)
        line.append(0x0A)
        return line
    }

    private mutating func append(_ key: String, _ value: [UInt8]) {
        // A converted document can be megabytes: grown once for it, not doubled into place.
        let needed = bytes.count + key.utf8.count + value.count + 8
        if needed > bytes.capacity { bytes.reserveCapacity(max(needed, 2 * bytes.capacity)) }
        if bytes.count > 1 { bytes.append(0x2C) }
        bytes += Self.encode(key)
        bytes.append(0x3A)
        bytes += value
    }

    /// A JSON string literal for `text`, escaped by the core's one writer (`JSONDocumentWriter.string`:
    /// the spelling of `JSONEncoder` with `.withoutEscapingSlashes`, which records used before, at a
    /// fraction of its cost per record: issue 32, docs/BENCHMARKS.md).
    static func encode(_ text: String) -> [UInt8] {
        var literal = JSONDocumentWriter(capacity: text.utf8.count + 8)
        literal.string(text)
        return literal.bytes
    }
}
