/// Where a JSON document stops being JSON (RFC 8259): the byte offset, line and column of the first
/// syntax error, for messages a person can act on (`policy.invalid_json at line 3, column 14`).
/// `JSONSerialization` only says "around character N", and not always where the mistake is.
///
/// The scan is iterative (a stack of open containers), so nesting depth cannot exhaust the call
/// stack. It checks structure and tokens; the parser that follows still decodes the values.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Byte offset of the offending byte (the document's length for an early end).
    public let offset: Int
    /// 1-based line (a `\n` starts a new one).
    public let line: Int
    /// 1-based column, counted in characters (UTF-8 continuation bytes do not count).
    public let column: Int
    public let message: String

    public var description: String { "line \(line), column \(column): \(message)" }

    /// The first syntax error of `bytes`, or nil when the document is well-formed JSON. A UTF-8
    /// byte-order mark is skipped; a UTF-16 or UTF-32 document (a NUL in its first four bytes) is
    /// left to the parser.
    public static func first(in bytes: [UInt8]) -> JSONSyntaxError? {
        if bytes.prefix(4).contains(0) { return nil }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let (offset, message) = scan(bytes, from: start) else { return nil }
        var line = 1
        var column = 1
        for byte in bytes[start ..< max(start, min(offset, bytes.count))] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONSyntaxError(offset: offset, line: line, column: column, message: message)
    }

    private enum State { case value, nameOrEnd, name, colon, commaOrEnd, end }

    private static func scan(_ bytes: [UInt8], from start: Int) -> (Int, String)? {
        var open: [UInt8] = []  // "{" or "["
        var state = State.value
        var index = start
        var firstInContainer = false
        while true {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            guard index < bytes.count else {
                return state == .end ? nil : (index, open.isEmpty && state == .value ? "the document is empty" : "the document ends early; \(expected(state, open.last))")
            }
            let byte = bytes[index]
            switch state {
            case .end:
                return (index, "unexpected '\(shown(byte))' after the end of the document")
            case .colon:
                guard byte == UInt8(ascii: ":") else { return (index, "expected ':' after a member name, found '\(shown(byte))'") }
                index += 1
                state = .value
            case .nameOrEnd, .name:
                if byte == UInt8(ascii: "}"), state == .nameOrEnd {
                    open.removeLast()
                    index += 1
                    state = open.isEmpty ? .end : .commaOrEnd
                    continue
                }
                guard byte == UInt8(ascii: "\"") else {
                    return (index, "expected a member name in double quotes, found '\(shown(byte))'")
                }
                switch string(bytes, from: index) {
                case .success(let end): index = end
                case .failure(let failure): return failure
                }
                state = .colon
            case .commaOrEnd:
                let container = open.last ?? 0
                let close = container == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if byte == close {
                    open.removeLast()
                    index += 1
                    state = open.isEmpty ? .end : .commaOrEnd
                } else if byte == UInt8(ascii: ",") {
                    index += 1
                    state = container == UInt8(ascii: "{") ? .name : .value
                    firstInContainer = false
                } else {
                    return (index, "expected ',' or '\(shown(close))', found '\(shown(byte))'")
                }
            case .value:
                if byte == UInt8(ascii: "]"), firstInContainer, open.last == UInt8(ascii: "[") {
                    open.removeLast()
                    index += 1
                    firstInContainer = false
                    state = open.isEmpty ? .end : .commaOrEnd
                    continue
                }
                firstInContainer = false
                switch byte {
                case UInt8(ascii: "{"):
                    open.append(byte)
                    index += 1
                    state = .nameOrEnd
                    continue
                case UInt8(ascii: "["):
                    open.append(byte)
                    index += 1
                    firstInContainer = true
                    continue
                case UInt8(ascii: "\""):
                    switch string(bytes, from: index) {
                    case .success(let end): index = end
                    case .failure(let failure): return failure
                    }
                default:
                    guard let end = literal(bytes, from: index) else {
                        return (index, byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
                            ? "expected a value, found '\(shown(byte))' (a trailing comma?)"
                            : "expected a value, found '\(shown(byte))'")
                    }
                    index = end
                }
                state = open.isEmpty ? .end : .commaOrEnd
            }
        }
    }

    private static func expected(_ state: State, _ container: UInt8?) -> String {
        switch state {
        case .colon: "expected ':'"
        case .nameOrEnd, .name: "expected a member name"
        case .commaOrEnd: container == UInt8(ascii: "{") ? "expected ',' or '}'" : "expected ',' or ']'"
        case .value, .end: "expected a value"
        }
    }

    private enum Scanned { case success(Int), failure((Int, String)) }

    /// The end of the string starting at `start` (its opening quote).
    private static func string(_ bytes: [UInt8], from start: Int) -> Scanned {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return .success(index + 1)
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { break }
                let escaped = bytes[index + 1]
                if escaped == UInt8(ascii: "u") {
                    let digits = bytes[min(index + 2, bytes.count) ..< min(index + 6, bytes.count)]
                    guard digits.count == 4, digits.allSatisfy(isHexDigit) else { return .failure((index, "'\\u' needs four hex digits")) }
                    index += 6
                } else {
                    guard Array("\"\\/bfnrt".utf8).contains(escaped) else { return .failure((index, "unknown escape '\\\(shown(escaped))'")) }
                    index += 2
                }
                continue
            case 0x00 ... 0x1F: return .failure((index, "a control character inside a string (a missing closing quote?)"))
            default: break
            }
            index += 1
        }
        return .failure((start, "a string that never ends"))
    }

    /// The end of a number or `true`/`false`/`null` at `start`, or nil when none is there.
    private static func literal(_ bytes: [UInt8], from start: Int) -> Int? {
        for word in ["true", "false", "null"] where bytes[start...].starts(with: word.utf8) {
            return start + word.utf8.count
        }
        var index = start
        func digits() -> Bool {
            let first = index
            while index < bytes.count, (0x30 ... 0x39).contains(bytes[index]) { index += 1 }
            return index > first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "0") { index += 1 } else if !digits() { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return nil }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return nil }
        }
        return index
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30 ... 0x39).contains(byte) || (0x41 ... 0x46).contains(byte) || (0x61 ... 0x66).contains(byte)
    }

    /// A byte as it may be quoted in a message (printable ASCII, else its hex value).
    private static func shown(_ byte: UInt8) -> String {
        guard !(0x21 ... 0x7E).contains(byte) else { return String(UnicodeScalar(byte)) }
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count == 1 ? "0" + hex : hex)
    }
}
