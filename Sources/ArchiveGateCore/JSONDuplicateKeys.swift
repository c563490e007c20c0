/// A member name written twice in one JSON object.
public struct DuplicateJSONKey: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name, unescaped.
    public let key: String
    /// RFC 6901 pointer to the second member (`/limits/burst`).
    public let pointer: String
    /// Byte offset of the second occurrence's opening quote.
    public let offset: Int

    public var description: String { "duplicate key '\(key)' at \(pointer) (byte \(offset))" }
}

/// Finds duplicate member names in a JSON document: the one check every configuration document
/// goes through (server.json, tenant files, policies) before it is parsed.
///
/// RFC 8259 leaves duplicates undefined, and the parsers disagree on them: `JSONSerialization`
/// keeps the last, `JSONDecoder` the first, so a document read by both (a tenant file) meant two
/// things at once, and a second `"policy"` member could turn a gate tenant into an inspection
/// tenant unseen. Names are compared as Swift strings, the way the parsed dictionaries merge them,
/// so two spellings a dictionary would fold together (`"a"` and `"\u0061"`, or canonically
/// equivalent ones) count as one name.
///
/// The scan is iterative (an explicit stack), so nesting depth cannot exhaust the call stack. It
/// reports duplicates only, those before the first syntax error: a document that is not JSON
/// yields nil from there on, and the parser that follows names the syntax error.
public enum JSONDuplicateKeys {
    /// An open container and the escaped token it stands under in its parent ("" for the document
    /// itself). Frames keep one token each, not a whole pointer: a pointer per level would cost
    /// memory quadratic in the depth (200,000 levels of `[` are a few hundred KB of input).
    private enum Frame {
        case object(token: String, names: Set<String>)
        case array(token: String, count: Int)

        var token: String {
            switch self {
            case .object(let token, _), .array(let token, _): token
            }
        }
    }

    private enum Expectation {
        case value, firstNameOrEnd, name, colon, firstElementOrEnd, separatorOrEnd, documentEnd
    }

    /// The first duplicate in document order, or nil (no duplicate before the end or a syntax error).
    public static func first(in bytes: [UInt8]) -> DuplicateJSONKey? {
        var stack: [Frame] = []
        var expectation = Expectation.value
        var valueToken = ""
        var index = 0
        while true {
            while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            switch expectation {
            case .documentEnd:
                return nil
            case .colon:
                guard byte == UInt8(ascii: ":") else { return nil }
                index += 1
                expectation = .value
            case .value:
                switch byte {
                case UInt8(ascii: "{"):
                    stack.append(.object(token: valueToken, names: []))
                    index += 1
                    expectation = .firstNameOrEnd
                    continue
                case UInt8(ascii: "["):
                    stack.append(.array(token: valueToken, count: 0))
                    index += 1
                    expectation = .firstElementOrEnd
                    continue
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(bytes, from: index) else { return nil }
                    index = end
                default:
                    let start = index
                    while index < bytes.count, !isDelimiter(bytes[index]) { index += 1 }
                    guard index > start else { return nil }
                }
                expectation = stack.isEmpty ? .documentEnd : .separatorOrEnd
            case .firstNameOrEnd, .name:
                if byte == UInt8(ascii: "}"), expectation == .firstNameOrEnd {
                    index += 1
                    stack.removeLast()
                    expectation = stack.isEmpty ? .documentEnd : .separatorOrEnd
                    continue
                }
                guard byte == UInt8(ascii: "\""), let end = stringEnd(bytes, from: index),
                      case .object(let token, var names)? = stack.popLast() else { return nil }
                let name = unescaped(bytes[(index + 1)..<(end - 1)])
                guard names.insert(name).inserted else {
                    stack.append(.object(token: token, names: names))
                    return DuplicateJSONKey(key: name, pointer: pointer(of: stack, then: JSONPointer.escape(name)), offset: index)
                }
                stack.append(.object(token: token, names: names))
                valueToken = JSONPointer.escape(name)
                index = end
                expectation = .colon
            case .firstElementOrEnd:
                if byte == UInt8(ascii: "]") {
                    index += 1
                    stack.removeLast()
                    expectation = stack.isEmpty ? .documentEnd : .separatorOrEnd
                } else {
                    valueToken = nextElementToken(&stack)
                    expectation = .value
                }
            case .separatorOrEnd:
                index += 1
                switch (byte, stack.last) {
                case (UInt8(ascii: ","), .object?):
                    expectation = .name
                case (UInt8(ascii: ","), .array?):
                    valueToken = nextElementToken(&stack)
                    expectation = .value
                case (UInt8(ascii: "}"), .object?), (UInt8(ascii: "]"), .array?):
                    stack.removeLast()
                    expectation = stack.isEmpty ? .documentEnd : .separatorOrEnd
                default:
                    return nil
                }
            }
        }
    }

    /// The token of the array element about to be read; counts it.
    private static func nextElementToken(_ stack: inout [Frame]) -> String {
        guard case .array(let token, let count)? = stack.popLast() else { return "" }
        stack.append(.array(token: token, count: count + 1))
        return String(count)
    }

    /// The pointer of `last` inside the innermost open container (built once, for the report).
    private static func pointer(of stack: [Frame], then last: String) -> String {
        var pointer = ""
        for frame in stack.dropFirst() { pointer += "/" + frame.token }
        return pointer + "/" + last
    }

    /// The index just past the closing quote of the string opening at `start`; nil when unterminated.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return index + 1
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// A string's contents with its escapes resolved; a lone surrogate escape becomes U+FFFD.
    private static func unescaped(_ body: ArraySlice<UInt8>) -> String {
        guard body.contains(UInt8(ascii: "\\")) else { return String(decoding: body, as: UTF8.self) }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(body.count)
        var index = body.startIndex
        while index < body.endIndex {
            let byte = body[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < body.endIndex else {
                utf8.append(byte)
                continue
            }
            let escape = body[index]
            index += 1
            switch escape {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var unit = hexUnit(body, at: index) ?? 0xFFFD
                index += 4
                var scalar = Unicode.Scalar(unit)
                if (0xD800...0xDBFF).contains(unit), index + 1 < body.endIndex, body[index] == UInt8(ascii: "\\"),
                   body[index + 1] == UInt8(ascii: "u"), let low = hexUnit(body, at: index + 2), (0xDC00...0xDFFF).contains(low) {
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    scalar = Unicode.Scalar(unit)
                    index += 6
                }
                utf8.append(contentsOf: String(Character(scalar ?? "\u{FFFD}")).utf8)
            default: utf8.append(escape)  // \" \\ \/
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Four hex digits at `index` as a number; nil when they are not.
    private static func hexUnit(_ body: ArraySlice<UInt8>, at index: Int) -> UInt32? {
        guard index + 4 <= body.endIndex else { return nil }
        var value: UInt32 = 0
        for byte in body[index..<(index + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// What ends a number or literal.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
            || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "\"")
    }
}
