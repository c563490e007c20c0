/// A parsed JSON value, as both sides of the comparison produce it. Objects keep their pairs in
/// order and keep duplicates (a duplicate key in ArchiveGate's output is itself a finding).
indirect enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// The number's text, compared by value (`JSONComparison`).
    case number(String)
    case string([Unicode.Scalar])
    case array([JSONValue])
    case object([JSONPair])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    /// The value of `key` in an object (first occurrence).
    subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    var text: String? {
        guard case .string(let scalars) = self else { return nil }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }
}

/// One member of a JSON object.
struct JSONPair: Equatable {
    let key: String
    let value: JSONValue
}

/// A small strict JSON parser with a depth limit (ArchiveGate nests at most `maxDepth` objects).
struct JSONParser {
    struct Failure: Error { let offset: Int }
    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.value()
        parser.skipSpace()
        guard parser.position == bytes.count else { throw Failure(offset: parser.position) }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        skipSpace()
        guard position < bytes.count, depth < 2000 else { throw Failure(offset: position) }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1; depth += 1; defer { depth -= 1 }
            var pairs: [JSONPair] = []
            skipSpace()
            if peek("}") { position += 1; return .object(pairs) }
            while true {
                skipSpace()
                guard case .string(let key) = try value() else { throw Failure(offset: position) }
                skipSpace()
                try expect(":")
                var name = ""
                name.unicodeScalars.append(contentsOf: key)
                pairs.append(JSONPair(key: name, value: try value()))
                skipSpace()
                if peek(",") { position += 1; continue }
                try expect("}")
                return .object(pairs)
            }
        case UInt8(ascii: "["):
            position += 1; depth += 1; defer { depth -= 1 }
            var elements: [JSONValue] = []
            skipSpace()
            if peek("]") { position += 1; return .array(elements) }
            while true {
                elements.append(try value())
                skipSpace()
                if peek(",") { position += 1; continue }
                try expect("]")
                return .array(elements)
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            let start = position
            while position < bytes.count, "+-0123456789.eE".utf8.contains(bytes[position]) { position += 1 }
            guard position > start else { throw Failure(offset: position) }
            return .number(String(decoding: bytes[start ..< position], as: UTF8.self))
        }
    }

    private mutating func string() throws(Failure) -> [Unicode.Scalar] {
        position += 1
        var units: [UInt16] = []
        var raw: [UInt8] = []
        func flush() { units.append(contentsOf: String(decoding: raw, as: UTF8.self).utf16); raw.removeAll() }
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") {
                flush()
                var scalars: [Unicode.Scalar] = []
                var iterator = units.makeIterator()
                var decoder = UTF16()
                while case .scalarValue(let scalar) = decoder.decode(&iterator) { scalars.append(scalar) }
                return scalars
            }
            if byte != UInt8(ascii: "\\") { raw.append(byte); continue }
            flush()
            guard position < bytes.count else { break }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "n"): units.append(0x0A)
            case UInt8(ascii: "t"): units.append(0x09)
            case UInt8(ascii: "r"): units.append(0x0D)
            case UInt8(ascii: "b"): units.append(0x08)
            case UInt8(ascii: "f"): units.append(0x0C)
            case UInt8(ascii: "u"):
                guard position + 4 <= bytes.count, let unit = UInt16(String(decoding: bytes[position ..< position + 4], as: UTF8.self), radix: 16) else {
                    throw Failure(offset: position)
                }
                units.append(unit)
                position += 4
            default: units.append(UInt16(escape))
            }
        }
        throw Failure(offset: position)
    }

    private func peek(_ character: Unicode.Scalar) -> Bool { position < bytes.count && bytes[position] == UInt8(ascii: character) }

    private mutating func expect(_ character: Unicode.Scalar) throws(Failure) {
        guard peek(character) else { throw Failure(offset: position) }
        position += 1
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let utf8 = Array(word.utf8)
        guard position + utf8.count <= bytes.count, Array(bytes[position ..< position + utf8.count]) == utf8 else { throw Failure(offset: position) }
        position += utf8.count
    }
}
