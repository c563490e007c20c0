/// Reads typed JSON — what `convert --mode typed` renders — into the property list it describes.
///
/// Typed JSON is untrusted input: the reader is a strict RFC 8259 parser (UTF-8, no duplicate keys)
/// under the decode limits, and every error names the JSON pointer of the value at fault. Objects
/// with one member named by a tag are the plist kinds JSON cannot tell apart:
///
///     {"$uid": n}      UID, 0…2^32-1            {"$data": "base64"}   data (RFC 4648, padded)
///     {"$real": x}     real; x a number or "NaN", "Infinity", "-Infinity"
///     {"$date": x}     date, seconds since 2001  {"$set": […]}         plist set (binary only)
///
/// Other one-member objects whose key starts with a single `$` (besides the archiver's own
/// `$class`, `$classname`, `$classes`, `$top` …) are `encode.unknown_tag`. Integers are plist
/// integers; `null` and bare non-integer numbers are never in typed JSON and are refused.
///
/// Nesting recurses, bounded by `maxDepth` and by `maxParserDepth` whatever the policy says.
struct TypedJSONReader {
    /// The deepest nesting read whatever the limits say, so the call stack stays small. A keyed
    /// archive nests four levels (document, `$objects`, object, field array); anything past this
    /// is not an archive.
    static let maxParserDepth = 1_000

    let input: [UInt8]
    let limits: DecodeLimits
    let format: PropertyList.Format
    private let maxDepth: Int
    var position = 0
    private var valueCount = 0
    private var path: [PathToken] = []

    private enum PathToken {
        case key(String)
        case index(Int)
    }

    init(_ input: [UInt8], limits: DecodeLimits, format: PropertyList.Format) {
        self.input = input
        self.limits = limits
        self.format = format
        maxDepth = min(limits.maxDepth, Self.maxParserDepth)
    }

    /// The whole document as one property-list value.
    mutating func read() throws(EncodeError) -> PropertyListValue {
        guard input.count <= limits.maxInputBytes else {
            throw EncodeError(.inputTooLarge, pointer: "", "the JSON is \(input.count) bytes; the limit is \(limits.maxInputBytes)")
        }
        var start = 0
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        position = start
        let value = try readValue(depth: 1)
        skipWhitespace()
        guard position == input.count else { throw syntax("unexpected text after the JSON value") }
        return value
    }

    // MARK: - Values

    private mutating func readValue(depth: Int) throws(EncodeError) -> PropertyListValue {
        guard depth <= maxDepth else {
            throw failure(.depthLimitExceeded, "JSON values nest deeper than \(maxDepth)", offset: position)
        }
        valueCount += 1
        guard valueCount <= limits.maxObjects else {
            throw failure(.objectLimitExceeded, "more than \(limits.maxObjects) values", offset: position)
        }
        skipWhitespace()
        guard position < input.count else { throw syntax("the JSON ends where a value should be") }
        switch input[position] {
        case UInt8(ascii: "{"): return try readObject(depth: depth)
        case UInt8(ascii: "["):
            let elements = try readArray(depth: depth)
            return .array(elements)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"):
            let start = position
            try expectLiteral("null")
            throw failure(.invalidValue, "null has no place in typed JSON (an absent object is {\"$uid\": 0})", offset: start)
        default:
            let start = position
            let number = try readNumber()
            guard let integer = number.integer else {
                throw failure(.invalidValue, number.isInteger
                    ? "the integer is outside the 128-bit range a property list holds"
                    : "a bare real number; typed JSON writes reals as {\"$real\": x}", offset: start)
            }
            return .integer(integer)
        }
    }

    private mutating func readArray(depth: Int) throws(EncodeError) -> [PropertyListValue] {
        position += 1
        var elements = [PropertyListValue]()
        skipWhitespace()
        if position < input.count, input[position] == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            path.append(.index(elements.count))
            elements.append(try readValue(depth: depth + 1))
            path.removeLast()
            skipWhitespace()
            guard position < input.count else { throw syntax("the array is not closed") }
            if input[position] == UInt8(ascii: ",") { position += 1; continue }
            if input[position] == UInt8(ascii: "]") { position += 1; return elements }
            throw syntax("expected ',' or ']' in the array")
        }
    }

    /// Inserts `key` unless the object already has it, compared by UTF-16 code units as the archive's
    /// NSString keys are (`café` and `cafe\u{301}` are two keys): `keys` holds one spelling per
    /// canonical-equivalence class, `spellings` every other spelling met (rare). False for a duplicate.
    static func insertKey(_ key: String, into keys: inout Set<String>, spellings: inout [String]) -> Bool {
        let (inserted, member) = keys.insert(key)
        if inserted { return true }
        if member.utf16.elementsEqual(key.utf16) || spellings.contains(where: { $0.utf16.elementsEqual(key.utf16) }) { return false }
        spellings.append(key)
        return true
    }

    private mutating func readObject(depth: Int) throws(EncodeError) -> PropertyListValue {
        let objectStart = position
        position += 1
        var entries = [PropertyListValue.Entry]()
        var keys = Set<String>()
        var spellings: [String] = []
        skipWhitespace()
        if position < input.count, input[position] == UInt8(ascii: "}") {
            position += 1
            return .dictionary(entries)
        }
        while true {
            skipWhitespace()
            guard position < input.count, input[position] == UInt8(ascii: "\"") else { throw syntax("expected a string key") }
            let keyStart = position
            let key = try readString()
            guard Self.insertKey(key, into: &keys, spellings: &spellings) else {
                path.append(.key(key))
                throw failure(.duplicateKey, "the key \"\(key)\" appears twice in one object", offset: keyStart)
            }
            skipWhitespace()
            guard position < input.count, input[position] == UInt8(ascii: ":") else { throw syntax("expected ':' after the key") }
            position += 1
            path.append(.key(key))
            if entries.isEmpty, let tag = Tag(rawValue: key) {
                let value = try readTagged(tag, depth: depth)
                path.removeLast()
                skipWhitespace()
                guard position < input.count, input[position] == UInt8(ascii: "}") else {
                    throw failure(.invalidTag, "a \(key) object has exactly one member", offset: objectStart)
                }
                position += 1
                return value
            }
            if entries.isEmpty, Self.looksLikeTag(key) {
                throw failure(.unknownTag, "\(key) is not a typed-JSON tag ($uid, $real, $data, $date, $set)", offset: keyStart)
            }
            entries.append(PropertyListValue.Entry(key: key, value: try readValue(depth: depth + 1)))
            path.removeLast()
            skipWhitespace()
            guard position < input.count else { throw syntax("the object is not closed") }
            if input[position] == UInt8(ascii: ",") { position += 1; continue }
            if input[position] == UInt8(ascii: "}") { position += 1; return .dictionary(entries) }
            throw syntax("expected ',' or '}' in the object")
        }
    }

    /// The keys the archiver itself writes with a single `$`; every other such first key is a tag.
    private static let archiverKeys: Set<String> = ["$class", "$classname", "$classes", "$archiver", "$version", "$top", "$objects", "$null"]

    private static func looksLikeTag(_ key: String) -> Bool {
        key.hasPrefix("$") && !key.hasPrefix("$$") && !archiverKeys.contains(key) && !KeyedArchive.isGeneratedKey(key)
    }

    // MARK: - Tags

    private enum Tag: String {
        case uid = "$uid", real = "$real", data = "$data", date = "$date", set = "$set"
    }

    private mutating func readTagged(_ tag: Tag, depth: Int) throws(EncodeError) -> PropertyListValue {
        skipWhitespace()
        let start = position
        switch tag {
        case .set:
            guard format == .binary else {
                throw failure(.notRepresentable, "an XML property list has no sets; write the archive as binary", offset: start)
            }
            guard position < input.count, input[position] == UInt8(ascii: "[") else {
                throw failure(.invalidTag, "$set holds an array", offset: start)
            }
            valueCount += 1
            return .set(try readArray(depth: depth + 1))
        case .data:
            guard position < input.count, input[position] == UInt8(ascii: "\"") else {
                throw failure(.invalidTag, "$data holds a base64 string", offset: start)
            }
            let text = try readString()
            guard let bytes = Base64.decode(text) else {
                throw failure(.invalidTag, "$data is not padded standard base64 (RFC 4648)", offset: start)
            }
            guard bytes.count <= limits.maxDataBytes else {
                throw failure(.dataTooLarge, "$data holds \(bytes.count) bytes; the limit is \(limits.maxDataBytes)", offset: start)
            }
            return .data(bytes)
        case .uid:
            guard position < input.count, input[position] == UInt8(ascii: "-") || Self.isDigit(input[position]) else {
                throw failure(.invalidTag, "$uid holds an integer 0…\(UInt32.max)", offset: start)
            }
            let number = try readNumber()
            guard let integer = number.integer, integer >= 0, integer <= Int128(UInt32.max) else {
                throw failure(.invalidTag, "$uid holds an integer 0…\(UInt32.max)", offset: start)
            }
            return .uid(UInt32(integer))
        case .real, .date:
            let seconds = try readReal(tag)
            if tag == .date, !seconds.isFinite || !PropertyList.representableDates.contains(seconds) {
                throw failure(.invalidTag, "a $date is seconds from 2001 within the years 0001…9999, as the reader accepts", offset: start)
            }
            if tag == .date, format == .xml, seconds != seconds.rounded(.towardZero) {
                throw failure(.notRepresentable, "an XML <date> holds whole seconds; write the archive as binary", offset: start)
            }
            return tag == .date ? .date(seconds) : .real(seconds)
        }
    }

    /// A number, or the strings the renderer writes for the values JSON has no number for.
    private mutating func readReal(_ tag: Tag) throws(EncodeError) -> Double {
        let start = position
        if position < input.count, input[position] == UInt8(ascii: "\"") {
            switch try readString() {
            case "NaN": return .nan
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            default: throw failure(.invalidTag, "\(tag.rawValue) holds a number, \"NaN\", \"Infinity\" or \"-Infinity\"", offset: start)
            }
        }
        guard position < input.count, input[position] == UInt8(ascii: "-") || Self.isDigit(input[position]) else {
            throw failure(.invalidTag, "\(tag.rawValue) holds a number", offset: start)
        }
        let number = try readNumber()
        guard let value = Double(String(decoding: input[number.range], as: UTF8.self)), value.isFinite else {
            throw failure(.invalidTag, "\(tag.rawValue) is outside the range of a double", offset: start)
        }
        return value
    }

    // MARK: - Scalars

    private struct Number {
        var range: Range<Int>
        var isInteger: Bool
        /// The value when the literal is an integer within Int128.
        var integer: Int128?
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func readNumber() throws(EncodeError) -> Number {
        let start = position
        var negative = false
        if position < input.count, input[position] == UInt8(ascii: "-") { negative = true; position += 1 }
        guard position < input.count, Self.isDigit(input[position]) else { throw syntax("expected a value") }
        var integer: Int128? = 0
        if input[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < input.count, Self.isDigit(input[position]) {
                let digit = Int128(input[position] - UInt8(ascii: "0"))
                if let value = integer {
                    let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
                    let (sum, overflowB) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
                    integer = overflowA || overflowB ? nil : sum
                }
                position += 1
            }
        }
        var isInteger = true
        if position < input.count, input[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard try skipDigits() > 0 else { throw syntax("expected digits after '.'") }
        }
        if position < input.count, input[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if position < input.count, input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-") { position += 1 }
            guard try skipDigits() > 0 else { throw syntax("expected digits in the exponent") }
        }
        return Number(range: start ..< position, isInteger: isInteger, integer: isInteger ? integer : nil)
    }

    private mutating func skipDigits() throws(EncodeError) -> Int {
        let start = position
        while position < input.count, Self.isDigit(input[position]) { position += 1 }
        return position - start
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func expectLiteral(_ literal: StaticString) throws(EncodeError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= input.count else { throw syntax("expected a value") }
        let matches = literal.withUTF8Buffer { expected in input[position ..< position + count].elementsEqual(expected) }
        guard matches else { throw syntax("expected a value") }
        position += count
    }

    private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    // MARK: - Errors

    private func pointer() -> String {
        var result = ""
        for token in path {
            switch token {
            case .key(let key): result = JSONPointer.appending(result, key)
            case .index(let index): result = JSONPointer.appending(result, index)
            }
        }
        return result
    }

    func failure(_ code: EncodeError.Code, _ message: String, offset: Int) -> EncodeError {
        EncodeError(code, pointer: pointer(), offset: offset, message)
    }

    func syntax(_ message: String) -> EncodeError {
        EncodeError(.invalidJSON, pointer: pointer(), offset: position, message)
    }
}
