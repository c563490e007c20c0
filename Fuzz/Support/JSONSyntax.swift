/// A strict RFC 8259 syntax check and whitespace stripper, iterative (no recursion, so any depth),
/// fast enough to run on every fuzz output. Foundation's `JSONSerialization` is a second opinion on
/// small outputs only: it builds and bridges the whole value, which on 1 MiB under ASan exceeds the
/// fuzzer's 2 s timeout.
public enum JSONSyntax {
    /// True when `json` is exactly one JSON value (with optional surrounding whitespace) in UTF-8.
    public static func isValid(_ json: [UInt8]) -> Bool {
        guard String(validating: json, as: UTF8.self) != nil else { return false }
        var parser = Parser(json)
        return parser.document()
    }

    /// `json` without the whitespace between tokens: pretty and compact renderings must agree on it.
    public static func minified(_ json: [UInt8]) -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(json.count)
        var inString = false
        var escaped = false
        for byte in json {
            if inString {
                output.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if !isWhitespace(byte) {
                output.append(byte)
                if byte == UInt8(ascii: "\"") { inString = true }
            }
        }
        return output
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private struct Parser {
        enum Container { case array, object }
        let bytes: [UInt8]
        var index = 0
        var stack: [Container] = []

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func document() -> Bool {
            skipWhitespace()
            guard value() else { return false }
            skipWhitespace()
            return index == bytes.count
        }

        /// One value, containers included, with an explicit stack instead of recursion.
        private mutating func value() -> Bool {
            while true {
                // A value starts here: a scalar, or an opening bracket.
                skipWhitespace()
                guard index < bytes.count else { return false }
                let opening = bytes[index]
                if opening == UInt8(ascii: "[") || opening == UInt8(ascii: "{") {
                    let container: Container = opening == UInt8(ascii: "[") ? .array : .object
                    index += 1
                    skipWhitespace()
                    if peek(container == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")) {
                        index += 1  // empty: a finished value
                    } else {
                        stack.append(container)
                        if container == .object, !key() { return false }
                        continue
                    }
                } else if !scalar() {
                    return false
                }
                // A value ended: close finished containers, or move to the next element.
                while let container = stack.last {
                    skipWhitespace()
                    if peek(container == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")) {
                        index += 1
                        stack.removeLast()
                        continue
                    }
                    guard peek(UInt8(ascii: ",")) else { return false }
                    index += 1
                    if container == .object, !key() { return false }
                    break
                }
                if stack.isEmpty { return true }
            }
        }

        private mutating func scalar() -> Bool {
            switch bytes[index] {
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        /// An object member's key and colon.
        private mutating func key() -> Bool {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")), string() else { return false }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { return false }
            index += 1
            return true
        }

        private mutating func string() -> Bool {
            index += 1  // the opening quote
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return true
                case 0x00 ..< 0x20: return false
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return false }
                    let escape = bytes[index]
                    index += 1
                    if escape == UInt8(ascii: "u") {
                        guard index + 4 <= bytes.count, bytes[index ..< index + 4].allSatisfy(isHexDigit) else { return false }
                        index += 4
                    } else if !Array("\"\\/bfnrt".utf8).contains(escape) {
                        return false
                    }
                default: continue
                }
            }
            return false
        }

        private mutating func number() -> Bool {
            if peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            if bytes[index] == UInt8(ascii: "0") { index += 1 } else { digits() }
            if peek(UInt8(ascii: ".")) {
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { return false }
                digits()
            }
            if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
                index += 1
                if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { return false }
                digits()
            }
            return true
        }

        private mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            let matches = text.withUTF8Buffer { bytes[index ..< index + count].elementsEqual($0) }
            index += count
            return matches
        }

        private mutating func digits() { while index < bytes.count, isDigit(bytes[index]) { index += 1 } }
        private mutating func skipWhitespace() { while index < bytes.count, JSONSyntax.isWhitespace(bytes[index]) { index += 1 } }
        private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }
        private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        private func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
        }
    }
}
